import { asSchema, type FlexibleSchema, jsonSchema, type Schema } from 'ai';

/** Inputs that failed the tool's own schema, with the validation error (objects only: see `routeValidation`). */
const invalidInputs = new WeakMap<object, { error: unknown; value: unknown }>();

/** The validation failure of an input `routeValidation` let through, if it failed. */
export function invalidInputOf(input: unknown): { error: unknown; value: unknown } | undefined {
  return typeof input === 'object' && input !== null ? invalidInputs.get(input) : undefined;
}

/**
 * The tool's schema with validation routed through the wrapper: the JSON Schema sent to the model is the
 * original (byte-identical), and `validate` runs the original validation but reports invalid input as valid
 * after remembering it, so `execute` sees the call, renders the issues with the shared formatter and counts
 * it against the tool's budget. Invalid primitives (a tool input should be an object) travel as a fresh `{}`,
 * which is also what the AI SDK sends back to the model for them.
 */
export function routeValidation(inputSchema: FlexibleSchema<unknown>): Schema<unknown> {
  let original: Schema<unknown> | undefined;
  const schema = () => {
    original ??= asSchema(inputSchema);
    return original;
  };
  return jsonSchema(() => schema().jsonSchema, {
    validate: async (value) => {
      const validate = schema().validate;
      if (validate === undefined) return { success: true, value };
      let error: unknown;
      try {
        const result = await validate(value);
        if (result.success) return result;
        error = result.error;
      } catch (thrown) {
        error = thrown;
      }
      const carrier = typeof value === 'object' && value !== null ? value : {};
      invalidInputs.set(carrier, { error, value });
      return { success: true, value: carrier };
    },
  });
}
