/**
 * The little of oidc-provider (v9, which ships no types) that server/testing/oidc-provider.ts uses, typed
 * here rather than pulling @types/oidc-provider and Koa's types into the install for one test helper.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }
  export interface Account {
    accountId: string;
    claims(use: string, scope: string): AccountClaims | Promise<AccountClaims>;
  }
  export interface KoaContext {
    path: string;
    method: string;
    status: number;
    body: unknown;
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
      provider: Provider;
    };
  }
  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export interface Interaction {
    uid: string;
    prompt: { name: string };
    params: Record<string, unknown>;
  }
  export interface Configuration {
    clients: Array<Record<string, unknown>>;
    findAccount(context: KoaContext, id: string): Account | undefined | Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    scopes?: string[];
    features?: Record<string, { enabled: boolean }>;
    interactions?: { url(context: KoaContext, interaction: Interaction): string };
    loadExistingGrant?(context: KoaContext): Promise<Grant | undefined>;
    cookies?: { keys: string[] };
    jwks?: { keys: Array<Record<string, unknown>> };
    ttl?: Record<string, number>;
    pkce?: { required(): boolean };
    renderError?(context: KoaContext, out: Record<string, string>, error: Error): void;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    readonly issuer: string;
    proxy: boolean;
    Grant: {
      new (properties: { accountId: string; clientId: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
    };
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    use(middleware: (context: KoaContext, next: () => Promise<void>) => Promise<void>): this;
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<Interaction & { grantId?: string }>;
    interactionFinished(
      request: IncomingMessage,
      response: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
