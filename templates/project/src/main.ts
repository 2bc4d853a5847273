import { existsSync } from 'node:fs';
import { configFromEnv, createApp } from './app.js';

if (existsSync('.env')) process.loadEnvFile('.env');

// Serves until SIGINT or SIGTERM, then drains requests and exits.
await createApp(configFromEnv()).listen();
