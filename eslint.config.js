import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

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
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "separate-type-imports" }],
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Next's server components and route handlers are often async without awaiting anything.
      "@typescript-eslint/require-await": "off",
    },
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
            { group: ["**/generated/**", "@prisma/*", "**/db", "**/services/**", "**/api/**"], message: "server/domain is pure: no database or upward imports." },
            { group: ["node:fs", "node:fs/*", "fs", "node:http", "node:net"], message: "server/domain is pure: no I/O." },
          ],
        },
      ],
    },
  },
);
