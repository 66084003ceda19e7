// A SWE-bench-style instance: as its files hold it (snake_case, the lists of tests decoded from
// the JSON text they are often given as; sweBenchFileInstanceSchema checks and converts it) and as the product keeps it
// (camelCase, sweBenchInstanceSchema; the type comes from it). Each refusal says what is wrong
// with its field; swe-bench-instance.ts names the file, the instance and the field.
import { z } from 'zod';
import { taskIdProblem } from './task-id';

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

const absent = (v: unknown) => v === undefined || v === null;
const orMissing = (what: string) => ({ error: (iss: { input?: unknown }) => (absent(iss.input) ? 'is missing.' : what) });

const requiredText = () => z.string(orMissing('must be non-empty text.')).refine((s) => s.trim() !== '', 'must be non-empty text.');

/** "owner/name", as an instance's repo and a sequence's name it. */
export const repoNameSchema = requiredText().refine((s) => /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(s) && !s.split('/').some((p) => p === '.' || p === '..'), {
  error: (iss) => `"${String(iss.input)}" is not "owner/name".`,
});

const commitId = requiredText()
  .refine((s) => /^[0-9a-f]{7,40}$/i.test(s), { error: (iss) => `"${String(iss.input).slice(0, 60)}" is not a commit id (7 to 40 hex digits).` })
  .transform((s) => s.toLowerCase());

/**
 * A list of node ids, duplicates dropped. SWE-bench's files give it as JSON text: the reader
 * (swe-bench-instance.ts) decodes that text first, and text left is text that was not JSON.
 */
const testList = z
  .array(
    z.string().refine((t) => t.trim() !== ''),
    {
      error: (iss) =>
        typeof iss.input === 'string' ? 'is text that is not a JSON list of test ids.' : absent(iss.input) ? 'is missing.' : 'must be a list of test ids.',
    },
  )
  .transform((list) => [...new Set(list)]);

/** An optional field: absent or null is left out. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

export const sweBenchFileInstanceSchema = z
  .object(
    {
      instance_id: requiredText().superRefine((id, ctx) => {
        const problem = taskIdProblem(id);
        if (problem) ctx.addIssue({ code: 'custom', message: `cannot name a folder because ${problem}.` });
      }),
      FAIL_TO_PASS: testList.refine((l) => l.length > 0, 'is empty; an instance needs at least one test that the fix makes pass.'),
      PASS_TO_PASS: testList,
      repo: repoNameSchema,
      base_commit: commitId,
      test_patch: requiredText(),
      problem_statement: optional(z.string({ error: 'must be text.' })),
      hints_text: optional(z.string({ error: 'must be text.' })),
      environment_setup_commit: optional(commitId),
      version: optional(z.union([z.string(), z.number()], { error: 'must be text or a number.' }).transform(String)),
    },
    { error: 'an instance must be a JSON object.' },
  )
  .superRefine((v, ctx) => {
    const p2p = new Set(v.PASS_TO_PASS);
    const both = v.FAIL_TO_PASS.filter((t) => p2p.has(t));
    if (both.length)
      ctx.addIssue({
        code: 'custom',
        message: `${both[0]} is in both FAIL_TO_PASS and PASS_TO_PASS${both.length > 1 ? ` (and ${both.length - 1} more)` : ''}; a test is in one of them.`,
      });
  })
  .transform((v): SweBenchInstance => ({
    instanceId: v.instance_id,
    repo: v.repo,
    baseCommit: v.base_commit,
    testPatch: v.test_patch,
    failToPass: v.FAIL_TO_PASS,
    passToPass: v.PASS_TO_PASS,
    ...(v.problem_statement !== undefined ? { problemStatement: v.problem_statement } : {}),
    ...(v.hints_text !== undefined ? { hintsText: v.hints_text } : {}),
    ...(v.environment_setup_commit !== undefined ? { environmentSetupCommit: v.environment_setup_commit } : {}),
    ...(v.version !== undefined ? { version: v.version } : {}),
  }));
