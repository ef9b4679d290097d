// The write_todos schema exactly as seed 004 writes it in zod: planloop's reference.
import { z } from "zod";

export const writeTodosSchema = z.object({
  todos: z
    .array(
      z.object({
        id: z.string().min(1).max(40),
        content: z.string().min(1).max(140),
        status: z.enum(["pending", "in_progress", "completed"]),
      }),
    )
    .min(1)
    .max(8),
  focus: z.string().max(40).optional(),
  note: z.string().max(200).optional(),
});

/** What `schema.safeParse(value)` returns, as the plain object planloop returns. */
export function zodAnswer(schema, value) {
  const result = schema.safeParse(value);
  return result.success
    ? { success: true, data: result.data }
    : { success: false, error: { issues: result.error.issues } };
}
