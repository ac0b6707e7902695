import { spawn } from 'node:child_process';

/**
 * `npm run dev`: the API server on API_PORT (default 8080, no SPA) and Vite with hot reload
 * on 5173, whose proxy sends API paths to the server. Ctrl-C stops both.
 */
const apiPort = process.env.API_PORT ?? '8080';
const children = [
  spawn('npx', ['tsx', 'watch', 'src/server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort, SAFAR_STATIC_DIR: '' },
  }),
  spawn('npx', ['vite', '--host'], { stdio: 'inherit', env: { ...process.env, API_PORT: apiPort } }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
