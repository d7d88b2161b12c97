import dns from "node:dns";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { syncBuiltinESMExports } from "node:module";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../../db";
import { ADDRESS_NOT_ALLOWED } from "../../domain/webhooks/delivery-error";
import type { PrismaClient } from "../../generated/prisma/client";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ServiceError } from "../platform/errors";
import { updateWebhookSettings } from "./webhook-settings";
import { attemptWebhookDelivery } from "./webhooks";

// Issue 36, item 10: a delivery connects only to the addresses its check resolved (DNS rebinding), every
// special-purpose range is refused on save and on delivery, and what a failed delivery records names no
// internal address or port.
//
// A test cannot reach the internet, so 127.0.0.2 stands for "a public address" here: the allow-list
// admits it, and nothing else. 127.0.0.1 stays refused: it is where a rebinding name would lead.
process.env.BENCHTRACK_WEBHOOK_ALLOWED_HOSTS = "127.0.0.2/32";

const PUBLIC_STAND_IN = "127.0.0.2";

interface Receiver {
  port: number;
  /** Requests received, by the address they came to. */
  hits: { checked: number; rebound: number };
  /** The TLS server names (SNI) asked for, on the HTTPS receiver. */
  serverNames: string[];
  close(): Promise<void>;
}

const listen = (server: Server, port: number, host: string) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * Two receivers on the same port: one on the stand-in public address (what the check saw), one on
 * 127.0.0.1 (where a second resolution would lead). The first is HTTPS when `tls` is given.
 */
async function startReceivers(tls?: { key: string; cert: string }): Promise<Receiver> {
  const hits = { checked: 0, rebound: 0 };
  const serverNames: string[] = [];
  const answer = (key: keyof typeof hits) => (request: { resume(): void }, response: { end(body: string): void }) => {
    hits[key]++;
    request.resume();
    response.end("ok");
  };
  for (let attempt = 0; ; attempt++) {
    const checked = tls
      ? createHttpsServer(
          {
            ...tls,
            SNICallback: (name, done) => {
              serverNames.push(name);
              done(null);
            },
          },
          answer("checked"),
        )
      : createHttpServer(answer("checked"));
    const rebound = createHttpServer(answer("rebound"));
    const port = await listen(checked, 0, PUBLIC_STAND_IN);
    try {
      await listen(rebound, port, "127.0.0.1");
      return { port, hits, serverNames, close: async () => void (await Promise.all([close(checked), close(rebound)])) };
    } catch (error) {
      await close(checked);
      if (attempt === 5) throw error;
    }
  }
}

/** A resolver that answers the stand-in public address first, and 127.0.0.1 after (a rebinding name). */
function rebindingResolver() {
  let calls = 0;
  return vi.fn(async (_host: string) => (calls++ === 0 ? [PUBLIC_STAND_IN] : ["127.0.0.1"]));
}

/**
 * The system resolver itself made to rebind `host` (both node:dns's callback lookup, which a connection
 * uses by default, and node:dns/promises's): the stand-in public address at the first lookup, 127.0.0.1
 * at every later one. What an attacker's DNS server does with a zero TTL.
 */
function rebindSystemResolver(host: string) {
  const original = { lookup: dns.lookup, promisesLookup: dns.promises.lookup };
  let calls = 0;
  const answer = () => (calls++ === 0 ? PUBLIC_STAND_IN : "127.0.0.1");
  dns.lookup = ((hostname: string, options: unknown, callback?: unknown) => {
    if (hostname !== host) return (original.lookup as (...args: unknown[]) => void)(hostname, options, callback);
    const done = (typeof options === "function" ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === "object" && options !== null && (options as { all?: boolean }).all === true;
    const address = answer();
    process.nextTick(() => (all ? done(null, [{ address, family: 4 }]) : done(null, address, 4)));
  }) as typeof dns.lookup;
  dns.promises.lookup = (async (hostname: string, options?: { all?: boolean }) => {
    if (hostname !== host) return (original.promisesLookup as (...args: unknown[]) => unknown)(hostname, options);
    const address = answer();
    return options?.all ? [{ address, family: 4 }] : { address, family: 4 };
  }) as typeof dns.promises.lookup;
  syncBuiltinESMExports();
  return {
    calls: () => calls,
    restore: () => {
      dns.lookup = original.lookup;
      dns.promises.lookup = original.promisesLookup;
      syncBuiltinESMExports();
    },
  };
}

// A throwaway self-signed certificate for hooks.test (EC P-256, valid until 2126), for tests only.
const HOOKS_TEST_TLS = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg7o94zAe2mINg2l6l
U5e7Csu5g6A6ALgdwnmYFvFKWSehRANCAAQbg0uondG4/yKww+k60G/jFI4dCyP2
bQb5Uy3FcMrfPSSw0Nx6v0RlZnBxJc8ttQP6A3XsHi9WiOmDZUMTx36c
-----END PRIVATE KEY-----
`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBmDCCAT6gAwIBAgIUCTXXjmR3XT2sET0uUAFKMDUuZP4wCgYIKoZIzj0EAwIw
FTETMBEGA1UEAwwKaG9va3MudGVzdDAgFw0yNjExMjkwNjUwNDhaGA8yMTI2MTEw
NTA2NTA0OFowFTETMBEGA1UEAwwKaG9va3MudGVzdDBZMBMGByqGSM49AgEGCCqG
SM49AwEHA0IABBuDS6id0bj/IrDD6TrQb+MUjh0LI/ZtBvlTLcVwyt89JLDQ3Hq/
RGVmcHElzy21A/oDdeweL1aI6YNlQxPHfpyjajBoMB0GA1UdDgQWBBQ8rwbg2xZh
92ZIH/la0OrcsXiCvzAfBgNVHSMEGDAWgBQ8rwbg2xZh92ZIH/la0OrcsXiCvzAP
BgNVHRMBAf8EBTADAQH/MBUGA1UdEQQOMAyCCmhvb2tzLnRlc3QwCgYIKoZIzj0E
AwIDSAAwRQIgPCc4S3IolIrfdc7koJiXHM/cZNVaS5XRby14ZkQiqFQCIQDfAiPi
WHC8SuhjLRMRIYShD/8c9NUndE9/NcHinX2WEw==
-----END CERTIFICATE-----
`,
};

describe.each(testDatabaseTargets())("webhook targets pinned to what was checked, on $name", ({ target }) => {
  let database: Database;
  let db: PrismaClient;
  const receivers: Receiver[] = [];
  const receiversFor = async (tls?: { key: string; cert: string }) => {
    const started = await startReceivers(tls);
    receivers.push(started);
    return started;
  };

  /** A project whose webhook is `url` (stored as an older version may have stored it: no check on the way), and one delivery queued to it. */
  const deliveryTo = async (url: string) => {
    const project = await db.project.create({
      data: { slug: uniqueSlug("pin"), name: "pinning", webhookUrl: url },
      select: { id: true, slug: true },
    });
    const delivery = await db.webhookDelivery.create({
      data: { projectId: project.id, event: "incident.opened", format: "json", url, payload: { text: "p95 +30%" } },
      select: { id: true },
    });
    return { ...project, deliveryId: delivery.id };
  };
  const lastErrorOf = async (deliveryId: string) =>
    (await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).lastError;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    db = database.prisma;
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });

  afterAll(async () => {
    await database.close();
  });

  it("resolves once and connects to the address checked, never to what the name answers next (DNS rebinding, injected resolver)", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const receiver = await receiversFor();
    const { deliveryId } = await deliveryTo(`http://rebind.test:${receiver.port}/hook`);
    const resolve = rebindingResolver();

    expect(await attemptWebhookDelivery(db, deliveryId, { resolve, timeoutMs: 2000 })).toEqual({
      delivered: true,
      retryable: false,
      error: null,
    });
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(receiver.hits).toEqual({ checked: 1, rebound: 0 });

    // The next attempt resolves again, sees 127.0.0.1, and sends nothing; what it records names no address.
    const { deliveryId: second } = await deliveryTo(`http://rebind.test:${receiver.port}/hook`);
    expect(await attemptWebhookDelivery(db, second, { resolve, timeoutMs: 2000 })).toEqual({
      delivered: false,
      retryable: false,
      error: ADDRESS_NOT_ALLOWED,
    });
    expect(resolve).toHaveBeenCalledTimes(2);
    expect(receiver.hits).toEqual({ checked: 1, rebound: 0 });
    expect(await lastErrorOf(second)).toBe(ADDRESS_NOT_ALLOWED);
    expect(await lastErrorOf(second)).not.toMatch(/127\.0\.0\.1|rebind\.test|\d+\.\d+\.\d+\.\d+/);
    // The server's log has the detail, for whoever runs it.
    expect(warn.mock.calls.flat().join(" ")).toMatch(/rebind\.test resolves to 127\.0\.0\.1, which is a loopback/);
  });

  it("the system resolver rebinding between the check and the connection cannot reach 127.0.0.1 (before: the POST went there)", async () => {
    const receiver = await receiversFor();
    const { deliveryId } = await deliveryTo(`http://rebind-system.test:${receiver.port}/hook`);
    const system = rebindSystemResolver("rebind-system.test");
    try {
      await attemptWebhookDelivery(db, deliveryId, { timeoutMs: 2000 });
    } finally {
      system.restore();
    }
    expect(receiver.hits.rebound).toBe(0);
    expect(receiver.hits).toEqual({ checked: 1, rebound: 0 });
    expect(system.calls()).toBe(1);
  });

  it("keeps TLS on the URL's host name: SNI and the certificate check are for the host, not the pinned address", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const receiver = await receiversFor(HOOKS_TEST_TLS);
    const { deliveryId } = await deliveryTo(`https://hooks.test:${receiver.port}/hook`);
    const outcome = await attemptWebhookDelivery(db, deliveryId, {
      resolve: async () => [PUBLIC_STAND_IN],
      timeoutMs: 2000,
    });
    // The handshake asked for hooks.test; the self-signed certificate is not trusted, so nothing was sent.
    expect(receiver.serverNames).toEqual(["hooks.test"]);
    expect(outcome).toEqual({ delivered: false, retryable: true, error: "TLS error (handshake or certificate)" });
    expect(receiver.hits).toEqual({ checked: 0, rebound: 0 });
  });

  it("refuses, at delivery, a name that resolves to a private address, and a special-purpose address saved before it was refused", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const internal = await deliveryTo("http://internal.test:8080/hook");
    const resolve = vi.fn(async () => ["93.184.216.34", "10.0.0.5"]);
    expect(await attemptWebhookDelivery(db, internal.deliveryId, { resolve })).toEqual({
      delivered: false,
      retryable: false,
      error: ADDRESS_NOT_ALLOWED,
    });
    expect(resolve).toHaveBeenCalledTimes(1);
    for (const url of [
      "http://[fec0::1]/hook",
      "http://192.0.2.10:8080/hook",
      "http://[100::1]/hook",
      "http://[64:ff9b::a00:5]/hook",
    ]) {
      const saved = await deliveryTo(url);
      expect({ url, outcome: await attemptWebhookDelivery(db, saved.deliveryId) }).toEqual({
        url,
        outcome: { delivered: false, retryable: false, error: ADDRESS_NOT_ALLOWED },
      });
    }
    const logged = warn.mock.calls.flat().join(" ");
    expect(logged).toContain("internal.test resolves to 10.0.0.5, which is a loopback, private");
    expect(logged).toContain(
      "fec0::1 is a loopback, private, link-local, metadata or other special-purpose address (site-local (deprecated) fec0::/10",
    );
  });

  it("what a failed delivery records names no address nor port: connection refused, host name not found", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const receiver = await receiversFor();
    const port = receiver.port;
    await receiver.close();
    receivers.splice(receivers.indexOf(receiver), 1);
    const refused = await deliveryTo(`http://hooks.internal.test:${port}/hook`);
    expect(await attemptWebhookDelivery(db, refused.deliveryId, { resolve: async () => [PUBLIC_STAND_IN] })).toEqual({
      delivered: false,
      retryable: true,
      error: "Connection refused",
    });
    const notFound = await deliveryTo(`http://gone.internal.test:${port}/hook`);
    const enotfound = Object.assign(new Error("getaddrinfo ENOTFOUND gone.internal.test"), { code: "ENOTFOUND" });
    expect(
      await attemptWebhookDelivery(db, notFound.deliveryId, { resolve: async () => Promise.reject(enotfound) }),
    ).toMatchObject({ error: "Host name not found" });
    for (const id of [refused.deliveryId, notFound.deliveryId]) {
      const lastError = await lastErrorOf(id);
      expect(lastError).not.toMatch(/127\.0\.0\.2|internal\.test|ECONN|ENOTFOUND/);
      expect(lastError).not.toContain(String(port));
    }
  });

  it("refuses every special-purpose range on save, naming the url field (a bad_request: 400)", async () => {
    const slug = uniqueSlug("pin-save");
    await db.project.create({ data: { slug, name: "pinning" } });
    for (const url of [
      "http://[fec0::1]/hook",
      "http://192.0.2.1/hook",
      "http://[100::1]/hook",
      "http://[100:0:0:1::1]/hook",
      "http://198.51.100.7/hook",
      "http://203.0.113.9/hook",
      "http://198.19.255.1/hook",
      "http://192.0.0.8/hook",
      "http://192.88.99.1/hook",
      "http://192.31.196.1/hook",
      "http://192.175.48.1/hook",
      "http://192.52.193.1/hook",
      "http://255.255.255.255/hook",
      "http://240.0.0.1/hook",
      "http://224.0.0.251/hook",
      "http://100.127.255.254/hook",
      "http://[2001:db8::1]/hook",
      "http://[3fff::1]/hook",
      "http://[5f00::1]/hook",
      "http://[2001::1]/hook",
      "http://[2001:2::1]/hook",
      "http://[2002:c0a8:101::1]/hook",
      "http://[2620:4f:8000::1]/hook",
      "http://[64:ff9b::7f00:1]/hook",
      "http://[64:ff9b:1::a00:1]/hook",
      "http://[::ffff:a00:1]/hook",
      "http://[::127.0.0.1]/hook",
      "http://[ff02::1]/hook",
      "http://[fe80::1]/hook",
      "http://[fc00::1]/hook",
      "http://[4000::1]/hook",
      "http://localhost./hook",
    ]) {
      const refusal = await updateWebhookSettings(db, { kind: "admin" }, slug, { url }).then(
        () => null,
        (error: unknown) => error,
      );
      expect({
        url,
        refused: refusal instanceof ServiceError ? { code: refusal.code, path: refusal.details[0]?.path } : refusal,
      }).toEqual({
        url,
        refused: { code: "bad_request", path: "url" },
      });
    }
    // Ordinary public addresses, and NAT64 or IPv4-mapped forms of one, are saved.
    for (const url of [
      "https://93.184.216.34/hook",
      "https://[2606:4700:4700::1111]/hook",
      "https://[64:ff9b::808:808]/hook",
      "https://[::ffff:808:808]/hook",
    ]) {
      expect((await updateWebhookSettings(db, { kind: "admin" }, slug, { url })).url).toBe(url);
    }
  });
});
