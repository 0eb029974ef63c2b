// Answers are written from each route's zod response schema by fast-json-stringify, Fastify's
// own serializer: only the schema's fields go out, so a handler cannot leak a column it forgot
// to drop. zod's encode of every answer (fastify-type-provider-zod) cost a sixth of a
// `/api/auth/me` answer and more on the long lists; the handlers build their answers from typed
// rows, so a type check of each answer on its way out bought nothing the compiler does not.
import fastJson, { type Schema } from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import type { ZodType } from 'zod';
import { z } from '#common/zod.ts';

/** Each writer is built on its route's first answer: building all of them at start cost 130 ms. */
export const serializerCompiler: FastifySerializerCompiler<ZodType> = ({ schema }) => {
  let write: ((data: unknown) => string) | undefined;
  return (data) => {
    write ??= fastJson(z.toJSONSchema(schema, { io: 'output', target: 'draft-07' }) as Schema);
    return write(data);
  };
};
