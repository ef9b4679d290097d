// The seed's write_todos schema (seed-schema.mjs) in zod/mini, zod's form for small
// bundles: what a host that counts bytes would write instead. The bench weighs a page
// made with it.
import * as z from "zod/mini";

export const miniWriteTodosSchema = z.object({
  todos: z
    .array(
      z.object({
        id: z.string().check(z.minLength(1), z.maxLength(40)),
        content: z.string().check(z.minLength(1), z.maxLength(140)),
        status: z.enum(["pending", "in_progress", "completed"]),
      }),
    )
    .check(z.minLength(1), z.maxLength(8)),
  focus: z.optional(z.string().check(z.maxLength(40))),
  note: z.optional(z.string().check(z.maxLength(200))),
});
