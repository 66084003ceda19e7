// What every webview protocol is made of: zod/mini schemas (small enough for the webview
// bundles) from which the message types are inferred, so a field cannot exist in a type without
// its check. Webview messages are strict objects: a field the schema does not name is refused, a
// webview being untrusted content. Browser-safe.
import * as z from 'zod/mini';

/** A request's id: the reply carries it back, so a late reply to an old request is recognised. */
export const requestId = () => z.int().check(z.minimum(0));
/** A count or an index: a non-negative integer. */
export const count = () => z.int().check(z.minimum(0));

/** A type guard from a schema: true only for what the schema accepts. */
export function guardFor<S extends z.ZodMiniType>(schema: S): (x: unknown) => x is z.infer<S> {
  return (x: unknown): x is z.infer<S> => schema.safeParse(x).success;
}
