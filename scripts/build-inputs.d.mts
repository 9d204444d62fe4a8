// Types of build-inputs.mjs for the tests that run the built CLI. `root`: the repository's by default.
export declare function distIsFresh(root?: string): boolean;
export declare function recordBuild(build: () => Promise<unknown>, root?: string): Promise<void>;
