import type { LookupOptions } from "node:dns";
import { describe, expect, it } from "vitest";
import { checkWebhookTarget, isPrivateAddress, pinnedLookup, specialPurposeRange, webhookTargetProblem } from "./webhook-targets";

describe("where a webhook may point", () => {
  it("classifies loopback, private, link-local, shared, multicast and mapped addresses as private", () => {
    for (const address of ["127.0.0.1", "10.1.2.3", "172.20.0.1", "192.168.0.10", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "::1", "::", "fe80::1", "fd00:ec2::254", "::ffff:127.0.0.1"]) {
      expect({ address, private: isPrivateAddress(address) }).toEqual({ address, private: true });
    }
    for (const address of ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      expect({ address, private: isPrivateAddress(address) }).toEqual({ address, private: false });
    }
  });

  it("checks what a name resolves to, and lets a name that does not resolve pass (delivery checks again)", async () => {
    const resolver = (answers: Record<string, string[]>) => async (host: string) => {
      if (!(host in answers)) throw new Error("ENOTFOUND");
      return answers[host]!;
    };
    const dns = resolver({ "hooks.example.com": ["93.184.216.34"], "rebind.example.com": ["93.184.216.34", "10.0.0.7"] });
    expect(await webhookTargetProblem("https://hooks.example.com/x", dns)).toBeNull();
    expect(await webhookTargetProblem("https://rebind.example.com/x", dns)).toMatch(/resolves to 10\.0\.0\.7/);
    expect(await webhookTargetProblem("https://unknown.example.com/x", dns)).toBeNull();
    expect(await webhookTargetProblem("http://0x7f000001/", dns)).toMatch(/127\.0\.0\.1 is a loopback/);
  });
});

describe("the special-purpose ranges (IANA IPv4 and IPv6 registries), and the tricks that spell them", () => {
  it("names the range of each special-purpose address, and of what an IPv4-mapped or NAT64 address holds", () => {
    for (const [address, range] of [
      ["0.1.2.3", '"this network" 0.0.0.0/8'],
      ["100.64.0.1", "shared address space (CGNAT) 100.64.0.0/10"],
      ["192.0.0.9", "IETF protocol assignments 192.0.0.0/24"],
      ["192.0.2.1", "documentation 192.0.2.0/24"],
      ["198.19.0.1", "benchmarking 198.18.0.0/15"],
      ["198.51.100.1", "documentation 198.51.100.0/24"],
      ["203.0.113.1", "documentation 203.0.113.0/24"],
      ["192.88.99.1", "6to4 relay anycast 192.88.99.0/24"],
      ["224.0.0.1", "multicast 224.0.0.0/4"],
      ["255.255.255.255", "limited broadcast 255.255.255.255/32"],
      ["250.1.2.3", "reserved 240.0.0.0/4"],
      ["::", "unspecified ::/128"],
      ["::1", "loopback ::1/128"],
      ["::ffff:127.0.0.1", "IPv4-mapped address of 127.0.0.1, loopback 127.0.0.0/8"],
      ["::ffff:a00:1", "IPv4-mapped address of 10.0.0.1, private 10.0.0.0/8"],
      ["0:0:0:0:0:ffff:a9fe:a9fe", "IPv4-mapped address of 169.254.169.254, link-local (metadata services live there) 169.254.0.0/16"],
      ["64:ff9b::7f00:1", "NAT64 address of 127.0.0.1, loopback 127.0.0.0/8"],
      ["64:ff9b:1::1", "NAT64 local use 64:ff9b:1::/48"],
      ["100::1", "discard-only 100::/64"],
      ["100:0:0:1::1", "dummy IPv6 prefix 100:0:0:1::/64"],
      ["2001::1", "IETF protocol assignments 2001::/23"],
      ["2001:db8::1", "documentation 2001:db8::/32"],
      ["2002:7f00:1::1", "6to4 2002::/16"],
      ["3fff::1", "documentation 3fff::/20"],
      ["5f00::1", "SRv6 SIDs 5f00::/16"],
      ["fc00::1", "unique-local fc00::/7"],
      ["fe80::1%eth0", "link-local (metadata services live there) fe80::/10"],
      ["fec0::1", "site-local (deprecated) fec0::/10"],
      ["ff02::1", "multicast ff00::/8"],
      ["::127.0.0.1", "not global unicast (outside 2000::/3)"],
      ["4000::1", "not global unicast (outside 2000::/3)"],
    ]) {
      expect({ address, range: specialPurposeRange(address!) }).toEqual({ address, range });
    }
    for (const address of ["8.8.8.8", "100.128.0.1", "198.20.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2a00:1450::1", "not an address"]) {
      expect({ address, range: specialPurposeRange(address) }).toEqual({ address, range: null });
    }
  });

  it("refuses 40 ways of writing an internal or special-purpose address in a webhook URL", async () => {
    const noDns = async (host: string) => Promise.reject(new Error(`ENOTFOUND ${host}`));
    const tricks = [
      "http://127.0.0.1/", "http://127.1/", "http://0177.0.0.1/", "http://0x7f.0.0.1/", "http://2130706433/", "http://0x7f000001/",
      "http://017700000001/", "http://127.000.000.001/", "http://0/", "http://0.0.0.0/", "http://10.0.0.5:8080/", "http://172.31.255.255/",
      "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data/", "http://100.100.100.200/", "http://192.0.0.170/",
      "http://192.0.2.1/", "http://198.18.0.1/", "http://203.0.113.1/", "http://224.0.0.1/", "http://255.255.255.255/",
      "http://[::1]/", "http://[::]/", "http://[0:0:0:0:0:0:0:1]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/",
      "http://[0:0:0:0:0:ffff:a9fe:a9fe]/", "http://[::127.0.0.1]/", "http://[64:ff9b::127.0.0.1]/", "http://[64:ff9b:1::1]/",
      "http://[fd00:ec2::254]/", "http://[fe80::1]/", "http://[fec0::1]/", "http://[100::1]/", "http://[2001:db8::1]/",
      "http://[2002:7f00:1::]/", "http://localhost/", "http://LOCALHOST./", "http://api.localhost/", "https://user:pass@127.0.0.1:8443/",
    ];
    expect(tricks).toHaveLength(40);
    for (const url of tricks) {
      expect({ url, problem: await webhookTargetProblem(url, noDns) }).toEqual({ url, problem: expect.stringMatching(/loopback, private|this machine/) });
    }
  });
});

describe("a delivery's target: resolved once, every address checked, the connection pinned to them", () => {
  it("checks every address a name resolves to, and pins the connection's lookup to them, whatever DNS answers next", async () => {
    let calls = 0;
    const rebinding = async () => (calls++ === 0 ? ["93.184.216.34", "2606:2800:220:1::1"] : ["127.0.0.1"]);
    const target = await checkWebhookTarget("https://hooks.example.com/x", rebinding);
    if (!target.allowed) throw new Error(target.problem);
    expect(target.addresses).toEqual([
      { address: "93.184.216.34", family: 4 },
      { address: "2606:2800:220:1::1", family: 6 },
    ]);
    const lookup = pinnedLookup(target);
    const ask = (options: LookupOptions) =>
      new Promise<unknown>((resolve, reject) => lookup("hooks.example.com", options, (error, address, family) => (error ? reject(error) : resolve(family === undefined ? address : { address, family }))));
    // As node:net asks (all addresses, for happy eyeballs), twice: the same checked answers, DNS not asked again.
    expect(await ask({ all: true })).toEqual(target.addresses);
    expect(await ask({ all: true })).toEqual(target.addresses);
    expect(await ask({ family: 6 })).toEqual({ address: "2606:2800:220:1::1", family: 6 });
    expect(calls).toBe(1);
    // Only for the checked host.
    await expect(new Promise((resolve, reject) => lookup("elsewhere.example.com", { all: true }, (error) => (error ? reject(error) : resolve(null))))).rejects.toThrow(/Not the checked host/);
  });

  it("refuses a name when any of its addresses is private; one that does not resolve fails at connection with the resolver's error", async () => {
    expect(await checkWebhookTarget("https://mixed.example.com/", async () => ["93.184.216.34", "fec0::1"])).toEqual({
      allowed: false,
      problem: expect.stringMatching(/^mixed\.example\.com resolves to fec0::1, which is a loopback, private, link-local, metadata or other special-purpose address \(site-local/),
    });
    expect(await webhookTargetProblem("https://odd.example.com/", async () => ["93.184.216.34", "not-an-address"])).toMatch(/is not an IP address/);
    const missing = Object.assign(new Error("getaddrinfo ENOTFOUND gone.example.com"), { code: "ENOTFOUND" });
    const target = await checkWebhookTarget("https://gone.example.com/", async () => Promise.reject(missing));
    if (!target.allowed) throw new Error(target.problem);
    expect(target.addresses).toEqual([]);
    await expect(new Promise((resolve, reject) => pinnedLookup(target)("gone.example.com", { all: true }, (error) => (error ? reject(error) : resolve(null))))).rejects.toBe(missing);
  });
});
