/** The machines `npm run test:mutation` scores (machines.mjs). */
export declare const MACHINES: Record<string, { mutate: string[]; tests: string[] }>;
