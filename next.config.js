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
          // Next's hydration and Recharts' styles are inline, hence 'unsafe-inline'; nothing loads from
          // elsewhere, and no page may be framed (clickjacking).
          {
            key: "Content-Security-Policy",
            value:
              "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
              "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
          },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
        ],
      },
    ];
  },
};

export default nextConfig;
