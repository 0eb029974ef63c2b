// Builds the browser app from client/ into dist/client, which the server serves.
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const modules = (pattern: string) => new RegExp(`[\\\\/]node_modules[\\\\/](${pattern})[\\\\/]`);
const ZOD = /[\\/]node_modules[\\/]zod[\\/]|[\\/]common[\\/]zod\.ts$/;
const FORMS = modules('react-hook-form|@hookform');

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/** Whether `id` imports (directly or not) a module of the zod or form chunks. */
function needsFormCode(id: string, graph: ModuleGraph, seen = new Set<string>()): boolean {
  if (ZOD.test(id) || FORMS.test(id)) return true;
  if (seen.has(id) || /[\\/]node_modules[\\/]/.test(id)) return false;
  seen.add(id);
  return (graph.getModuleInfo(id)?.importedIds ?? []).some((next) =>
    needsFormCode(next, graph, seen),
  );
}

export default defineConfig({
  root: 'client',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    // Every browser the app supports has <link rel="modulepreload">: no polyfill in the entry.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Few chunks, fetched in parallel: the sign-in page is one file; a signed-in screen adds
        // the shared libraries, the shared app code, its shell and itself (client/main.tsx
        // starts them together). Zod and the form library come only with the screens that
        // validate a form. Rolldown's default made a chunk per set of importers: forty files of a
        // few hundred bytes each, which a phone fetches six at a time.
        codeSplitting: {
          // A group takes only the modules it names (the sign-in page keeps its own).
          includeDependenciesRecursively: false,
          groups: [
            { name: 'index', tags: ['$initial'], priority: 5 },
            { name: 'zod', test: ZOD, priority: 4 },
            { name: 'forms', test: FORMS, priority: 3 },
            { name: 'vendor', test: /[\\/]node_modules[\\/]/, minShareCount: 2, priority: 2 },
            {
              // App code two or more screens share; a shell or a screen stays its own chunk.
              name: (id, graph) =>
                /[\\/]pages[\\/]|-shell\.tsx$/.test(id) || needsFormCode(id, graph) ? null : 'app',
              debugName: 'app',
              test: /[\\/](client|common)[\\/]/,
              minShareCount: 2,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:8000', '/uploads': 'http://localhost:8000' } },
});
