/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // `npm test` type-checks the whole project (tsc --noEmit); the build need not do it a second time.
  typescript: { ignoreBuildErrors: true },
  // The embedded database and Prisma's driver adapters load WebAssembly and native-free drivers at
  // run time; keeping them out of the server bundle lets Node resolve their files as published (piscina
  // starts its worker threads from a file of its own; undici pins webhook connections to checked addresses).
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/adapter-pg", "pg", "pg-boss", "piscina", "undici"],
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
          // Nothing loads from elsewhere, no inline script runs, nothing frames a response (clickjacking).
          // Pages get this policy plus a nonce for their scripts from proxy.ts, which replaces this header
          // (server/domain/content-security-policy.ts explains it; its test holds the two equal).
          {
            key: "Content-Security-Policy",
            value:
              "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
              "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
          },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
        ],
      },
    ];
  },
};

export default nextConfig;
