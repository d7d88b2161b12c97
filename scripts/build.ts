// npm run build: the production build, stamped so `npm start` knows it is current. A child process that
// a stop (SIGINT, SIGTERM) is passed on to, as npm start runs it.
import { buildInChild } from "./lib/build";

process.exit(await buildInChild());
