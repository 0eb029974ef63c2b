// The answer writer sends exactly the fields of a route's response schema.
import { describe, expect, it } from 'vitest';
import { UserSchema } from '#common/auth.ts';
import { serializerCompiler } from './serializer.ts';

const write = serializerCompiler({
  schema: UserSchema,
  method: 'GET',
  url: '/',
  httpStatus: '200',
});
const user = {
  id: 'u1',
  username: 'klien',
  email: 'klien@sebar.test',
  role: 'client',
  points: 7,
  is_active: true,
  created_at: '2026-11-25T00:00:00.000Z',
};

describe('serializerCompiler', () => {
  it('writes the schema fields and drops any other, such as a password hash', () => {
    const text = write({ ...user, password_hash: '$argon2id$secret', token_version: 3 });
    expect(JSON.parse(text)).toEqual(user);
    expect(text).not.toContain('argon2');
  });

  it('refuses an answer that lacks a required field', () => {
    expect(() => write({ ...user, email: undefined })).toThrow();
  });
});
