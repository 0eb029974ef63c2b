// Answers are written from each route's zod response schema by fast-json-stringify, Fastify's
// own serializer: only the schema's fields go out, so a handler cannot leak a column it forgot
// to drop. The handlers build their answers from typed rows, so zod's check of each answer on its
// way out (fastify-type-provider-zod's serializer) would repeat what the compiler already checks
// (decision 142; its cost is in bench/NOTES.md).
import fastJson, { type Schema } from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import type { ZodType } from 'zod';
import { z } from '#common/zod.ts';

/** Each writer is built on its route's first answer, so a start does not build them all. */
export const serializerCompiler: FastifySerializerCompiler<ZodType> = ({ schema }) => {
  let write: ((data: unknown) => string) | undefined;
  return (data) => {
    write ??= fastJson(z.toJSONSchema(schema, { io: 'output', target: 'draft-07' }) as Schema);
    return write(data);
  };
};
