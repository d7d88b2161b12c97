import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { getEnv } from "../env";

/**
 * Where a webhook may point: never at this machine, the private network or a cloud metadata service
 * (SSRF), unless BENCHTRACK_WEBHOOK_ALLOWED_HOSTS names the host or its network. Checked when the URL
 * is saved and again, after DNS resolution, before every delivery (a name may be re-pointed later).
 * Node's own BlockList classifies the addresses.
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8], ["64:ff9b::", 96]] as const) {
  PRIVATE.addSubnet(network, prefix, "ipv6");
}

/** Whether an IP address is loopback, private, link-local (metadata services live there), shared, multicast or reserved. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, "ipv4");
  if (family !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? PRIVATE.check(mapped[1]!, "ipv4") : PRIVATE.check(address, "ipv6");
}

function allowList(): { hosts: Set<string>; networks: BlockList } {
  const hosts = new Set<string>();
  const networks = new BlockList();
  for (const entry of (getEnv().BENCHTRACK_WEBHOOK_ALLOWED_HOSTS ?? "").split(",").map((part) => part.trim().toLowerCase())) {
    if (entry === "") continue;
    const [network, prefix] = entry.split("/");
    const family = isIP(network ?? "");
    if (prefix !== undefined && family !== 0) networks.addSubnet(network!, Number(prefix), family === 4 ? "ipv4" : "ipv6");
    else hosts.add(entry);
  }
  return { hosts, networks };
}

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

/**
 * Why the webhook must not be sent to `url`, or null. A name that does not resolve passes here (the
 * delivery cannot connect anyway, and is checked again then).
 */
export async function webhookTargetProblem(url: string, resolve: (host: string) => Promise<string[]> = resolveAll): Promise<string | null> {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return "is not a URL";
  }
  const allowed = allowList();
  if (allowed.hosts.has(host)) return null;
  if (host === "localhost" || host.endsWith(".localhost")) return `${host} is this machine`;
  const addresses = isIP(host) !== 0 ? [host] : await resolve(host).catch(() => []);
  const blocked = addresses.find((address) => {
    if (!isPrivateAddress(address)) return false;
    const family = isIP(address) === 4 ? "ipv4" : "ipv6";
    return !allowed.networks.check(address, family) && !allowed.hosts.has(address);
  });
  return blocked === undefined
    ? null
    : `${host}${blocked === host ? "" : ` resolves to ${blocked}, which`} is a loopback, private, link-local or metadata address (allow it with BENCHTRACK_WEBHOOK_ALLOWED_HOSTS)`;
}
