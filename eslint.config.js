import { readdirSync } from "node:fs";
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/** A module's files are reached through its face: `server/services/<module>` and `server/domain/parsers/<tool>`, never a file inside. */
const DEEP_IMPORTS = [
  { group: ["**/services/*/*"], message: "A feature module is used through its public face (`server/services/<module>`, its index.ts), never its files." },
  { group: ["**/parsers/*/*", "!**/parsers/fixtures/**"], message: "A tool's parsers are used through its folder's index.ts (its descriptor and parse functions), never its files." },
];

/**
 * The feature modules of server/services (docs/architecture.md, "Feature modules"), lowest first: each may
 * use only those before it, and only through their public face (`<module>/index.ts`); code outside
 * server/services uses a module through its face too. Tests may reach inside.
 */
const SERVICE_MODULES = ["platform", "access", "audit", "members", "runs", "projects", "compare", "sharing", "gate", "trends", "changes", "notifications", "incidents", "ingest", "deletion", "transfer"];

/** `@typescript-eslint/no-restricted-imports` holds the module lines, so the layer rules (`no-restricted-imports`) still apply beside them. */
const moduleBoundaries = SERVICE_MODULES.map((name, rank) => ({
  files: [`server/services/${name}/**/*.ts`],
  ignores: ["**/*.test.ts"],
  rules: {
    "@typescript-eslint/no-restricted-imports": [
      "error",
      {
        patterns: [
          ...SERVICE_MODULES.slice(rank + 1).map((above) => ({
            group: [`../${above}`, `../${above}/**`],
            message: `server/services/${name} is below ${above} (SERVICE_MODULES in eslint.config.js): move what both need down, or the caller up.`,
          })),
          DEEP_IMPORTS[1],
          {
            group: SERVICE_MODULES.filter((other) => other !== name).map((other) => `../${other}/*`),
            message: "Another module is used through its public face (`../<module>`, its index.ts), never its files.",
          },
        ],
      },
    ],
  },
}));

/** The parsers' tool folders (docs/architecture.md, "Feature modules"): each stands alone on the shared readers at the top of parsers/. */
const PARSER_TOOLS = readdirSync(new URL("./server/domain/parsers", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== "fixtures")
  .map((entry) => entry.name);

const toolBoundaries = PARSER_TOOLS.map((tool) => ({
  files: [`server/domain/parsers/${tool}/**/*.ts`],
  ignores: ["**/*.test.ts"],
  rules: {
    "@typescript-eslint/no-restricted-imports": [
      "error",
      {
        patterns: [
          ...DEEP_IMPORTS,
          {
            group: PARSER_TOOLS.filter((other) => other !== tool).flatMap((other) => [`../${other}`, `../${other}/**`]),
            message: "A tool's parsers stand alone: what two tools share lives at the top of server/domain/parsers.",
          },
          { group: ["../index", "../tools", "../detect", "../format-list", "../resolution"], message: "The registries are built from the tools; a tool never imports them back." },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".data/**",
      "server/generated/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      "**/*.js",
      "**/*.mjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "separate-type-imports" }],
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Next's server components and route handlers are often async without awaiting anything.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    // Hooks live in the UI (app, components) and in .tsx files (tRPC's server helpers); server/domain,
    // server/services and the transports may not import React at all (the layer rules below). The hooks
    // rules run React's compiler over each file they see: a sixth of the lint's time when they read every file.
    files: ["app/**/*.ts", "components/**/*.ts", "**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Tests poke at JSON answers: the unsafe-any rules would only add casts there.
    files: ["**/*.test.ts", "e2e/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  // Layer boundaries (docs/architecture.md): dependencies point one way,
  // app → components → server/api | server/http → server/services → server/domain.
  {
    // Pure domain code must not reach up into frameworks, the database or I/O.
    files: ["server/domain/**/*.ts"],
    ignores: ["server/domain/**/*.test.ts", "server/domain/**/fixtures/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["next", "next/*", "react", "react-dom"], message: "server/domain is pure: no framework imports." },
            {
              group: ["**/generated/**", "@prisma/*", "**/db", "**/env", "**/services/**", "**/api/**", "**/http/**", "**/components/**", "@/app/**", "**/schemas/**"],
              message: "server/domain is pure: no database, configuration or upward imports (wire schemas live above it, in server/schemas).",
            },
            { group: ["node:fs", "node:fs/*", "fs", "node:http", "node:net"], message: "server/domain is pure: no I/O." },
          ],
        },
      ],
    },
  },
  {
    // Wire schemas are shared by REST, tRPC and the OpenAPI document: Zod and the domain only.
    files: ["server/schemas/**/*.ts"],
    ignores: ["server/schemas/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/services/**", "**/api/**", "**/http/**", "**/components/**", "@/app/**", "**/generated/**", "@prisma/*", "**/db", "next", "next/*", "react"],
              message: "server/schemas holds wire schemas only: it imports zod and server/domain, nothing else.",
            },
          ],
        },
      ],
    },
  },
  {
    // Use cases know nothing of the transports above them or of the UI.
    files: ["server/services/**/*.ts"],
    ignores: ["server/services/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["**/http/**", "**/http", "**/api/**", "**/jobs/**", "**/jobs", "@/app/**", "**/components/**"], message: "server/services is below the transports and the UI: no imports from server/http, server/api, server/jobs, app or components." },
            { group: ["next", "next/*", "react", "react-dom"], message: "server/services is framework-free." },
          ],
        },
      ],
    },
  },
  {
    // REST is a transport over services: no UI, and it never calls tRPC.
    files: ["server/http/**/*.ts", "app/api/v1/**/*.ts", "app/**/route.tsx"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["**/components/**", "react", "react-dom"], message: "The REST API is a transport over services: no UI imports." },
            { group: ["**/server/api/**", "../api/**"], message: "REST and tRPC are both transports over services; neither calls the other." },
          ],
        },
      ],
    },
  },
  {
    // Job workers are a transport over services, as REST and tRPC are: they call use cases, nothing above.
    files: ["server/jobs/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["**/components/**", "@/app/**", "next", "next/*", "react", "react-dom"], message: "server/jobs runs use cases in the background: no UI or framework imports." },
            { group: ["**/http/**", "**/http", "**/api/**"], message: "server/jobs is a transport over services; it never calls REST or tRPC." },
          ],
        },
      ],
    },
  },
  {
    // tRPC is the dashboard's transport over services: no UI, and it never calls REST plumbing.
    files: ["server/api/**/*.ts", "server/api/**/*.tsx"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["**/components/**", "@/app/**"], message: "server/api is a transport over services: no UI imports." },
            { group: ["**/http/**", "**/http"], message: "REST and tRPC are both transports over services; neither calls the other." },
          ],
        },
      ],
    },
  },
  {
    // The UI reads and writes through tRPC (types from RouterOutputs), never the database or services.
    files: ["components/**/*.ts", "components/**/*.tsx", "app/**/page.tsx", "app/**/layout.tsx", "app/**/not-found.tsx"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              // The API docs page may render the REST API's own OpenAPI document.
              group: ["**/server/services/**", "**/server/db", "**/server/http/**", "!**/server/http/openapi", "!**/server/http/openapi/**", "**/generated/**", "@prisma/*"],
              message: "The UI goes through tRPC (server/api) and pure modules (server/domain); never services, REST plumbing or the database.",
            },
          ],
        },
      ],
    },
  },
  ...moduleBoundaries,
  {
    // Outside server/services, a feature module is used through its public face only.
    files: ["**/*.ts", "**/*.tsx"],
    ignores: ["server/services/**", "**/*.test.ts", "e2e/**", "server/testing/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: DEEP_IMPORTS,
        },
      ],
    },
  },
  ...toolBoundaries,
);
