/**
 * The type shared by the config section schemas.
 *
 * @module
 */
import type { z } from "zod";

/** A zod schema reading unknown YAML data into `T`, the typed section. */
export type SectionSchema<T> = z.ZodType<T, unknown>;
