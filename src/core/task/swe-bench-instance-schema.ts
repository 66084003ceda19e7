// A SWE-bench-style instance as the product keeps it (in camelCase; the instance files' own
// snake_case fields are read by swe-bench-instance.ts). The type comes from the schema.
import { z } from 'zod';

export const sweBenchInstanceSchema = z.object({
  instanceId: z.string(),
  repo: z.string(),
  baseCommit: z.string(),
  testPatch: z.string(),
  failToPass: z.array(z.string()),
  passToPass: z.array(z.string()),
  problemStatement: z.string().optional(),
  hintsText: z.string().optional(),
  environmentSetupCommit: z.string().optional(),
  version: z.string().optional(),
});
export type SweBenchInstance = z.infer<typeof sweBenchInstanceSchema>;
