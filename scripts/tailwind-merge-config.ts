// Writes client/lib/tailwind-merge-config.ts: tailwind-merge's default configuration cut down to
// the class groups that the class names in client/ belong to. cn() merges with it, so the sign-in
// page does not download (nor build at its first cn() call) the other three hundred groups.
// Run after using a new kind of class: `node --import tsx scripts/tailwind-merge-config.ts`
// (client/lib/cn.test.ts fails until then).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from '@tailwindcss/node';
import { Scanner } from '@tailwindcss/oxide';
import * as prettier from 'prettier';
import { createTailwindMerge, getDefaultConfig, validators } from 'tailwind-merge';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT = path.join(ROOT, 'client', 'lib', 'tailwind-merge-config.ts');

/**
 * The class names in client/ that Tailwind writes CSS for (as @tailwindcss/vite finds them):
 * a class without CSS changes nothing on screen, however it is merged.
 */
export async function classNamesInClient(): Promise<string[]> {
  const stylesheet = path.join(ROOT, 'client', 'styles.css');
  const compiler = await compile(fs.readFileSync(stylesheet, 'utf8'), {
    base: path.dirname(stylesheet),
    onDependency: () => {},
  });
  const root =
    compiler.root === 'none'
      ? []
      : compiler.root === null
        ? [{ base: path.join(ROOT, 'client'), pattern: '**/*', negated: false }]
        : [{ ...compiler.root, negated: false }];
  const candidates = new Scanner({ sources: [...root, ...compiler.sources] }).scan();
  const css = compiler.build(candidates);
  return candidates.filter((name) => css.includes(`.${escapeClassName(name)}`));
}

/** A class name as a CSS selector writes it ('sm:p-4' -> 'sm\\:p-4'). */
function escapeClassName(name: string): string {
  return name.replace(/[^\w-]/g, (char) => `\\${char}`);
}

type Definition = unknown;
const config = getDefaultConfig();
const groupIds = Object.keys(config.classGroups) as (keyof typeof config.classGroups)[];

/** The groups a class name can fall in, each tried alone, so no group that the default would
 * try before the right one is left out. */
function groupsOf(classNames: string[]): Set<string> {
  const only = (classGroups: typeof config.classGroups | Record<string, never>) =>
    createTailwindMerge(() => ({
      ...config,
      classGroups,
      conflictingClassGroups: {},
      conflictingClassGroupModifiers: {},
    }));
  // Arbitrary properties ('[mask-type:alpha]') are merged without any group: they say nothing.
  const none = only({});
  const names = classNames.filter((name) => none(`${name} ${name}`) !== name);
  const used = new Set<string>();
  for (const id of groupIds) {
    const alone = only({ [id]: config.classGroups[id] } as typeof config.classGroups);
    if (names.some((name) => alone(`${name} ${name}`) === name)) used.add(id);
  }
  return used;
}

const validatorNames = new Map<unknown, string>(
  Object.entries(validators).map(([name, validator]) => [validator, name]),
);

/** The theme key a fromTheme() getter reads. */
function themeKey(getter: (theme: object) => unknown): string {
  let key = '';
  getter(
    new Proxy(
      {},
      {
        get: (_, name) => {
          key = String(name);
          return [];
        },
      },
    ),
  );
  return key;
}

/** The validators the written definitions call. */
const validatorsUsed = new Set<string>();

/** A class definition as source code; the theme keys it reads are added to `themeKeys`. */
function source(definition: Definition, themeKeys: Set<string>): string {
  if (typeof definition === 'string') return JSON.stringify(definition);
  if (typeof definition === 'function') {
    if ('isThemeGetter' in definition) {
      const key = themeKey(definition as unknown as (theme: object) => unknown);
      themeKeys.add(key);
      return `fromTheme(${JSON.stringify(key)})`;
    }
    const name = validatorNames.get(definition);
    if (!name) throw new Error('a function in the default configuration is not a validator');
    validatorsUsed.add(name);
    return name;
  }
  if (Array.isArray(definition))
    return `[${definition.map((d) => source(d, themeKeys)).join(', ')}]`;
  return `{${Object.entries(definition as object)
    .map(([key, value]) => `${JSON.stringify(key)}: ${source(value, themeKeys)}`)
    .join(', ')}}`;
}

async function main() {
  const used = groupsOf(await classNamesInClient());
  const keep = (ids: readonly string[]) => ids.filter((id) => used.has(id));
  const themeKeys = new Set<string>();
  const classGroups = groupIds
    .filter((id) => used.has(id))
    .map((id) => `${JSON.stringify(id)}: ${source(config.classGroups[id], themeKeys)}`);
  const conflicts = (table: Record<string, readonly string[] | undefined>) =>
    Object.entries(table)
      .filter(([id, ids]) => used.has(id) && keep(ids ?? []).length > 0)
      .map(([id, ids]) => `${JSON.stringify(id)}: ${JSON.stringify(keep(ids ?? []))}`);
  // Theme values may read other theme keys: add them until none is new.
  const theme = new Map<string, string>();
  while ([...themeKeys].some((key) => !theme.has(key))) {
    for (const key of [...themeKeys]) {
      if (!theme.has(key)) {
        theme.set(key, source(config.theme[key as keyof typeof config.theme], themeKeys));
      }
    }
  }
  const code = [
    `// Generated by scripts/tailwind-merge-config.ts: tailwind-merge's default configuration with`,
    `// only the ${used.size} (of ${groupIds.length}) class groups that client/ uses. Do not edit; run the script again.`,
    `import { fromTheme, validators } from 'tailwind-merge';`,
    ``,
    `const { ${[...validatorsUsed].sort().join(', ')} } = validators;`,
    ``,
    `export const tailwindMergeConfig = () => ({`,
    `  cacheSize: ${config.cacheSize},`,
    `  theme: {${[...theme]
      .sort()
      .map(([key, value]) => `${JSON.stringify(key)}: ${value}`)
      .join(', ')}},`,
    `  classGroups: {${classGroups.join(', ')}},`,
    `  conflictingClassGroups: {${conflicts(config.conflictingClassGroups).join(', ')}},`,
    `  conflictingClassGroupModifiers: {${conflicts(config.conflictingClassGroupModifiers).join(', ')}},`,
    `  postfixLookupClassGroups: ${JSON.stringify(keep(config.postfixLookupClassGroups ?? []))},`,
    `  orderSensitiveModifiers: ${JSON.stringify(config.orderSensitiveModifiers)},`,
    `});`,
    ``,
  ].join('\n');
  const options = await prettier.resolveConfig(OUTPUT);
  fs.writeFileSync(OUTPUT, await prettier.format(code, { ...options, filepath: OUTPUT }));
  console.log(`wrote ${path.relative(ROOT, OUTPUT)}: ${used.size} class groups`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
