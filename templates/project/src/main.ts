import { configFromEnv, createApp } from './app.js';

// Serves until SIGINT or SIGTERM, then drains requests and exits.
await createApp(configFromEnv()).listen();
