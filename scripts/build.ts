// npm run build: the production build, stamped so `npm start` knows it is current.
import { buildApp } from "./lib/build";

buildApp();
