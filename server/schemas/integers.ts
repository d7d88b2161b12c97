import { z } from "zod";

/**
 * A whole number written in a path or query string: decimal digits only. `Number()` (and z.coerce)
 * would also read "0x1", " 1", "1e3" and "1.0" as numbers, so /incidents/0x1 acted on #1 and
 * /incidents/1e3 on #1000; here they are a 400 naming the parameter.
 */
export function decimalIntegerSchema({ min, max }: { min: number; max: number }) {
  return z
    .string()
    .regex(/^[0-9]{1,10}$/, "must be a whole number in decimal digits")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}
