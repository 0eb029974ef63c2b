// The screens' formatter is common/'s (the server's texts use it too); this path stays for the
// screens that import it here.
export * from '#common/format.ts';
