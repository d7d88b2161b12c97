import { describe, expect, it } from "vitest";
import { isPrivateAddress, webhookTargetProblem } from "./webhook-targets";

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
