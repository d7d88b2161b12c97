// npm run build: the production build, stamped so `npm start` knows it is current. A child process that
// a stop (SIGINT, SIGTERM) is passed on to, as npm start runs it.
import { NEXT_BIN, ROOT, startingBuild } from "./lib/build";
import { runStep } from "./lib/child-step";

const build = startingBuild();
const code = await runStep(NEXT_BIN, ["build"], ROOT);
if (code === 0) build.finish();
process.exit(code);
