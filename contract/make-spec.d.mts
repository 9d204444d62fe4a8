// Types of make-spec.mjs for the contract test.
export declare const repoRoot: string;
export declare const EXCERPT: string;
export declare function patchSpec(doc: unknown): { doc: unknown; applied: string[] };
export declare function makeSpec(out?: string, source?: string): { out: string; applied: string[] };
