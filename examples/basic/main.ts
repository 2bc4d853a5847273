// The example service: `npm start` runs it. Try:
//   curl localhost:3000/health
//   curl -H 'authorization: Bearer demo-token' localhost:3000/api/v1/users
//   open http://localhost:3000/docs
//   curl localhost:3000/metrics
//   curl -N localhost:3000/ticks
//   curl -H 'authorization: Bearer demo-token' -F avatar=@me.png -F note=hi localhost:3000/api/v1/avatar
import { createApp } from './app.js';
import { addIntegrations } from './integrations.js';

await addIntegrations(createApp()).listen();
