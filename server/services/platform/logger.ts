import pino from "pino";
import type { Logger } from "pino";
import { getEnv } from "../../env";

/**
 * The process's one logger (pino): one structured line per API request (server/http/observe.ts) and per
 * background job (server/jobs/worker.ts), and the server's own warnings and errors. `BENCHTRACK_LOG_FORMAT`
 * chooses the line: "json" (the default: one JSON object a line, what a log collector reads) or "pretty"
 * (one readable line, formatted here in the same thread: pino's transports start a worker thread from a
 * file of their own, which a bundled Next.js server does not ship, and pino-pretty is a dozen packages).
 *
 * What is logged is chosen field by field by the callers: never a header, a cookie, a token or a share
 * link (observe.ts strips `share` from the paths it logs). On globalThis: Next bundles this module into
 * several chunks (routes, instrumentation), which must write through one logger.
 */
interface LogState {
  logger: Logger;
  /** Where lines go: stdout, or a test's capture (captureLogLines). */
  sink: (line: string) => void;
}

const globalForLogs = globalThis as unknown as { benchtrackLogs?: LogState };

const LEVEL_NAMES: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };

/** A JSON log line as one readable line: time, level, message, then the other fields as key=value. */
export function prettyLogLine(jsonLine: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(jsonLine) as Record<string, unknown>;
  } catch {
    return jsonLine;
  }
  const { time, level, msg, pid: _pid, hostname: _hostname, err, ...fields } = record;
  const clock = typeof time === "number" ? new Date(time).toISOString().slice(11, 23) : "";
  const levelName = (LEVEL_NAMES[level as number] ?? String(level)).padEnd(5);
  const rest = Object.entries(fields)
    .map(([key, value]) => `${key}=${typeof value === "string" && !/\s/.test(value) ? value : JSON.stringify(value)}`)
    .join(" ");
  const stack = typeof err === "object" && err !== null && "stack" in err ? `\n${String((err).stack)}` : "";
  return `${clock} ${levelName} ${typeof msg === "string" ? msg : ""}${rest === "" ? "" : `  ${rest}`}${stack}\n`;
}

function createLogState(): LogState {
  const env = getEnv();
  const state: LogState = {
    logger: undefined as unknown as Logger,
    sink: (line) => void process.stdout.write(line),
  };
  const format = env.BENCHTRACK_LOG_FORMAT;
  const stream = { write: (line: string) => state.sink(format === "pretty" ? prettyLogLine(line) : line) };
  state.logger = pino(
    {
      level: env.BENCHTRACK_LOG_LEVEL,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.epochTime,
      // No field of these names is ever written, whoever passes them (a last guard: callers pick their fields).
      redact: { paths: ["authorization", "cookie", "token", "headers", "*.authorization", "*.cookie", "*.token", "*.headers"], remove: true },
    },
    stream,
  );
  return state;
}

function logState(): LogState {
  globalForLogs.benchtrackLogs ??= createLogState();
  return globalForLogs.benchtrackLogs;
}

/** The logger. */
export function getLogger(): Logger {
  return logState().logger;
}

/**
 * For tests: every line written from now on (as the configured format renders it) is also collected,
 * down to info whatever the level (the test runs log at warn: vitest.config.ts); `stop()` ends the
 * capture, puts the level back and returns the lines.
 */
export function captureLogLines(): { lines: string[]; stop: () => string[] } {
  const state = logState();
  const previous = state.sink;
  const previousLevel = state.logger.level;
  const lines: string[] = [];
  if (state.logger.levelVal > state.logger.levels.values.info!) state.logger.level = "info";
  state.sink = (line) => {
    lines.push(line);
  };
  return {
    lines,
    stop: () => {
      state.sink = previous;
      state.logger.level = previousLevel;
      return lines;
    },
  };
}

/** Forgets the logger, so the next getLogger() reads the environment again (tests of the formats). */
export function resetLogger(): void {
  globalForLogs.benchtrackLogs = undefined;
}
