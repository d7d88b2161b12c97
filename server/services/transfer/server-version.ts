import packageJson from "../../../package.json";

/** The Benchtrack version writing an export (its header's serverVersion): package.json's. */
export const SERVER_VERSION: string = packageJson.version;
