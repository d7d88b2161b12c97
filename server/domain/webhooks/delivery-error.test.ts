import { describe, expect, it } from "vitest";
import { describeDeliveryError } from "./delivery-error";

/** An error as fetch (undici) throws it: "fetch failed", the useful part in `cause`. */
function fetchFailed(message: string, fields: { code?: string; name?: string }): TypeError {
  return new TypeError("fetch failed", { cause: Object.assign(new Error(message), fields) });
}

describe("describeDeliveryError", () => {
  it("says what kind of failure it was, and never repeats the error's text (addresses, ports, host names)", () => {
    const cases: [Error, string][] = [
      [fetchFailed("connect ECONNREFUSED 10.0.0.5:8080", { code: "ECONNREFUSED" }), "Connection refused"],
      [
        fetchFailed("Connect Timeout Error (attempted address: hooks.internal:443, timeout: 10000ms)", {
          code: "UND_ERR_CONNECT_TIMEOUT",
          name: "ConnectTimeoutError",
        }),
        "Connection timed out",
      ],
      [fetchFailed("connect ETIMEDOUT 172.16.4.2:443", { code: "ETIMEDOUT" }), "Connection timed out"],
      [fetchFailed("Headers Timeout Error", { code: "UND_ERR_HEADERS_TIMEOUT" }), "Timed out waiting for the answer"],
      [fetchFailed("read ECONNRESET", { code: "ECONNRESET" }), "Connection closed by the receiver"],
      [
        fetchFailed("other side closed", { code: "UND_ERR_SOCKET", name: "SocketError" }),
        "Connection closed by the receiver",
      ],
      [fetchFailed("getaddrinfo ENOTFOUND hooks.internal.corp", { code: "ENOTFOUND" }), "Host name not found"],
      [fetchFailed("getaddrinfo EAI_AGAIN hooks.internal.corp", { code: "EAI_AGAIN" }), "DNS lookup failed"],
      [fetchFailed("connect EHOSTUNREACH 10.9.9.9:80", { code: "EHOSTUNREACH" }), "Host unreachable"],
      [
        fetchFailed("self-signed certificate", { code: "DEPTH_ZERO_SELF_SIGNED_CERT" }),
        "TLS error (handshake or certificate)",
      ],
      [
        fetchFailed(
          "Hostname/IP does not match certificate's altnames: Host: a.internal. is not in the cert's altnames: DNS:b.internal",
          { code: "ERR_TLS_CERT_ALTNAME_INVALID" },
        ),
        "TLS error (handshake or certificate)",
      ],
      [fetchFailed("certificate has expired", { code: "CERT_HAS_EXPIRED" }), "TLS error (handshake or certificate)"],
      [
        fetchFailed("Parse Error: Invalid header value char", { code: "HPE_INVALID_HEADER_TOKEN" }),
        "Invalid HTTP answer",
      ],
      [fetchFailed("something new at 10.1.1.1:9000", {}), "Network error"],
      [new Error("no cause at all: 192.168.0.2"), "Network error"],
    ];
    for (const [error, expected] of cases) {
      const described = describeDeliveryError(error, 5000);
      const text = error.cause instanceof Error ? error.cause.message : error.message;
      expect({ error: text, described }).toEqual({ error: text, described: expected });
      expect(described).not.toMatch(/\d+\.\d+\.\d+\.\d+|:\d{2,5}\b|internal/);
    }
  });

  it("tells the attempt's own deadline apart (its AbortSignal), with the deadline", () => {
    expect(
      describeDeliveryError(new DOMException("The operation was aborted due to timeout", "TimeoutError"), 5000),
    ).toBe("Timed out: no answer within 5000 ms");
    expect(describeDeliveryError(new DOMException("This operation was aborted", "AbortError"), 200)).toBe(
      "Timed out: no answer within 200 ms",
    );
    expect(describeDeliveryError("a string thrown", 5000)).toBe("Network error");
  });
});
