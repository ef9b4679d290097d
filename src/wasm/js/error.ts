// The errors planloop throws: real `Error` objects named PlanloopError, with a stable
// snake_case `code` and a `data` object (`argument`, `issues`, `detail`). The messages
// are written by the core; this class only carries them.
import type { ErrorCode, ErrorData } from "../types";

export class PlanloopError extends Error {
  override name = "PlanloopError" as const;
  readonly code: ErrorCode;
  readonly data: ErrorData;

  constructor(message: string, code: string, data: object) {
    super(message);
    this.code = code as ErrorCode;
    this.data = data as ErrorData;
  }
}
