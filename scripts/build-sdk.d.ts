/** Types of build-sdk.js, for the tests that build the bundle they load. */
export declare const SDK_BUNDLE_PATH: string;
export declare function buildSdk(options?: { outfile?: string }): Promise<string>;
