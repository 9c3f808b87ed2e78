/**
 * The analyst's console (docs/console.md): built by `npm run build` (scripts/build-console.js)
 * into dist/console and served by the app at /console (src/http/console-app.ts). Every asset
 * is bundled from node_modules: no CDN, no web font, nothing from another host.
 */
import path from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  // React's automatic JSX runtime through Vite's own transform (no plugin: the production build needs none).
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: path.join(import.meta.dirname, '..', 'dist', 'console'),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Inline nothing as data: URLs beyond tiny images; the CSP allows img-src data: only.
    assetsInlineLimit: 2048,
    sourcemap: false,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      // Mantine marks its modules "use client" (for React Server Components); meaningless in this bundle.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: {
    // `npx vite --config console/vite.config.mts` for development, against a local Trustgate.
    proxy: { '^/(?!console/|@|src/|node_modules/)': 'http://127.0.0.1:3000' },
  },
});
