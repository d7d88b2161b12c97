import type { LookupAddress } from "node:dns";
import { lookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { Agent } from "undici";
import { getEnv } from "../../env";

/**
 * Where a webhook may point, and how it is reached. Never this machine, the private network, a cloud
 * metadata service or any other special-purpose address (SSRF), unless BENCHTRACK_WEBHOOK_ALLOWED_HOSTS
 * names the host or its network. Checked when the URL is saved and again before every delivery, where
 * the name is resolved ONCE, every address it resolves to is checked, and the connection is pinned to
 * the addresses checked (pinnedDispatcher): a name re-pointed between the check and the connection (DNS
 * rebinding) cannot take the delivery elsewhere. TLS still verifies the URL's host name (SNI and the
 * certificate check use the URL's host, not the address).
 *
 * The ranges are the IANA IPv4 and IPv6 Special-Purpose Address Registries
 * (https://www.iana.org/assignments/iana-ipv4-special-registry/,
 * https://www.iana.org/assignments/iana-ipv6-special-registry/), all refused, even the few entries the
 * registries mark globally reachable (anycast services nobody receives webhooks on), plus multicast,
 * IPv6 site-local, and any IPv6 address outside global unicast (2000::/3). Addresses that embed an IPv4
 * address (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96) are judged by the IPv4 address they embed.
 * Node's own BlockList (node:net) matches the ranges: no dependency, and it parses every spelling of an
 * address. One BlockList per range, each asked only about addresses of its family (a BlockList also
 * matches an IPv4 address against an IPv4-mapped IPv6 rule, and the reverse).
 */
const SPECIAL_PURPOSE_RANGES: readonly (readonly [name: string, cidrs: readonly string[]])[] = [
  ["loopback", ["127.0.0.0/8", "::1/128"]],
  ["private", ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"]],
  ["link-local (metadata services live there)", ["169.254.0.0/16", "fe80::/10"]],
  ["shared address space (CGNAT)", ["100.64.0.0/10"]],
  ["\"this network\"", ["0.0.0.0/8"]],
  ["unspecified", ["::/128"]],
  ["IETF protocol assignments", ["192.0.0.0/24", "2001::/23"]],
  ["documentation", ["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "2001:db8::/32", "3fff::/20"]],
  ["benchmarking", ["198.18.0.0/15"]],
  ["AS112 or AMT anycast", ["192.31.196.0/24", "192.52.193.0/24", "192.175.48.0/24", "2620:4f:8000::/48"]],
  ["6to4 relay anycast", ["192.88.99.0/24"]],
  ["6to4", ["2002::/16"]],
  ["limited broadcast", ["255.255.255.255/32"]],
  ["reserved", ["240.0.0.0/4"]],
  ["multicast", ["224.0.0.0/4", "ff00::/8"]],
  ["NAT64 local use", ["64:ff9b:1::/48"]],
  ["discard-only", ["100::/64"]],
  ["dummy IPv6 prefix", ["100:0:0:1::/64"]],
  ["unique-local", ["fc00::/7"]],
  ["site-local (deprecated)", ["fec0::/10"]],
  ["SRv6 SIDs", ["5f00::/16"]],
];

type Family = "ipv4" | "ipv6";

/** One BlockList per range, in the table's order (the first that holds an address names it). */
const RANGES = SPECIAL_PURPOSE_RANGES.flatMap(([name, cidrs]) => cidrs.map((cidr) => ({ name, cidr, ...subnet(cidr) })));
const GLOBAL_UNICAST = subnet("2000::/3").list;

function subnet(cidr: string): { family: Family; list: BlockList } {
  const [network = "", prefix] = cidr.split("/");
  const family = isIP(network) === 4 ? "ipv4" : "ipv6";
  const list = new BlockList();
  list.addSubnet(network, Number(prefix), family);
  return { family, list };
}

/** The eight 16-bit groups of a valid IPv6 address (a zone id dropped, a dotted IPv4 tail folded in). */
function ipv6Groups(address: string): number[] {
  let text = address.split("%")[0]!;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16));
}

/** The IPv4 address in the last 32 bits of an IPv6 address. */
function embeddedIpv4(groups: readonly number[]): string {
  const [high = 0, low = 0] = groups.slice(6);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/**
 * The special-purpose range an IP address is in ("loopback 127.0.0.0/8"), or null for an ordinary
 * public address (and for anything that is not an IP address).
 */
export function specialPurposeRange(address: string): string | null {
  const family = isIP(address);
  if (family === 4) return rangeOf(address, "ipv4");
  if (family !== 6) return null;
  const plain = address.split("%")[0]!;
  const groups = ipv6Groups(plain);
  const prefix96 = groups.slice(0, 6).join(":");
  // IPv4-mapped (::ffff:0:0/96) and NAT64 (64:ff9b::/96): where they lead is the IPv4 address they hold.
  for (const [name, prefix] of [["IPv4-mapped", "0:0:0:0:0:65535"], ["NAT64", "100:65435:0:0:0:0"]] as const) {
    if (prefix96 !== prefix) continue;
    const ipv4 = embeddedIpv4(groups);
    const range = rangeOf(ipv4, "ipv4");
    return range === null ? null : `${name} address of ${ipv4}, ${range}`;
  }
  return rangeOf(plain, "ipv6") ?? (GLOBAL_UNICAST.check(plain, "ipv6") ? null : "not global unicast (outside 2000::/3)");
}

function rangeOf(address: string, family: Family): string | null {
  const range = RANGES.find((candidate) => candidate.family === family && candidate.list.check(address, family));
  return range ? `${range.name} ${range.cidr}` : null;
}

/** Whether an IP address is loopback, private, link-local, or in any other special-purpose range (see above). */
export function isPrivateAddress(address: string): boolean {
  return specialPurposeRange(address) !== null;
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

/** Every address a name resolves to (the system resolver, as a connection would use). */
export type ResolveHost = (host: string) => Promise<string[]>;

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

/** A webhook target after its check: refused (why, naming addresses: for the admin and the server log only), or the addresses a delivery may connect to. */
export type CheckedWebhookTarget =
  | { allowed: false; problem: string }
  | {
      allowed: true;
      /** The URL's host, as the connection asks for it. */
      host: string;
      /** The checked addresses: the only ones a delivery connects to. */
      addresses: readonly LookupAddress[];
      /** Why the name did not resolve (then `addresses` is empty, and the connection fails with this error). */
      lookupError: Error | null;
    };

/**
 * Resolves the URL's host once and checks every address it resolves to. A name that does not resolve
 * is not refused here (at save time a name may not exist yet; a delivery then fails to connect, with
 * the resolver's error, and is retried).
 */
export async function checkWebhookTarget(url: string, resolve: ResolveHost = resolveAll): Promise<CheckedWebhookTarget> {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return { allowed: false, problem: "is not a URL" };
  }
  const allowed = allowList();
  const bareHost = host.replace(/\.$/, "");
  if (!allowed.hosts.has(host) && (bareHost === "localhost" || bareHost.endsWith(".localhost"))) return { allowed: false, problem: `${host} is this machine` };
  let addresses: string[] = [];
  let lookupError: Error | null = null;
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      lookupError = error instanceof Error ? error : new Error(String(error));
    }
  }
  if (!allowed.hosts.has(host)) {
    for (const address of addresses) {
      if (isIP(address) === 0) return { allowed: false, problem: `${host} resolves to ${JSON.stringify(address)}, which is not an IP address` };
      const range = specialPurposeRange(address);
      if (range === null) continue;
      const family = isIP(address) === 4 ? "ipv4" : "ipv6";
      if (allowed.networks.check(address.split("%")[0]!, family) || allowed.hosts.has(address)) continue;
      return {
        allowed: false,
        problem: `${host}${address === host ? "" : ` resolves to ${address}, which`} is a loopback, private, link-local, metadata or other special-purpose address (${range}; allow it with BENCHTRACK_WEBHOOK_ALLOWED_HOSTS)`,
      };
    }
  }
  return { allowed: true, host, addresses: addresses.map((address) => ({ address, family: isIP(address) })), lookupError };
}

/**
 * Why the webhook must not be sent to `url`, or null (the check on save: webhook-settings.ts). The
 * problem names the address at fault: it goes to the admin who saves the URL, nobody else.
 */
export async function webhookTargetProblem(url: string, resolve: ResolveHost = resolveAll): Promise<string | null> {
  const target = await checkWebhookTarget(url, resolve);
  return target.allowed ? null : target.problem;
}

/**
 * A resolver for the connection that answers with the checked addresses only, and never asks DNS again
 * (node:net's `lookup` option: `all` asks for every address, else the first of the family asked).
 */
export function pinnedLookup(target: Extract<CheckedWebhookTarget, { allowed: true }>): LookupFunction {
  return (hostname, options, callback) => {
    const fail = (error: Error) => process.nextTick(() => callback(error, "", 0));
    if (hostname.toLowerCase().replace(/^\[|\]$/g, "") !== target.host) return fail(new Error(`Not the checked host: ${hostname}`));
    if (target.lookupError !== null) return fail(target.lookupError);
    const family = options.family === 4 || options.family === "IPv4" ? 4 : options.family === 6 || options.family === "IPv6" ? 6 : 0;
    const addresses = target.addresses.filter((entry) => family === 0 || entry.family === family);
    if (addresses.length === 0) {
      return fail(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname }));
    }
    process.nextTick(() => (options.all ? callback(null, [...addresses]) : callback(null, addresses[0]!.address, addresses[0]!.family)));
  };
}

/**
 * An undici dispatcher whose connections go to the checked addresses only: give it to `fetch` as
 * `dispatcher`, and destroy it after the request (one per attempt).
 */
export function pinnedDispatcher(target: Extract<CheckedWebhookTarget, { allowed: true }>): Agent {
  return new Agent({ connect: { lookup: pinnedLookup(target) } });
}
