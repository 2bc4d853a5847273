import { App, type AppOptions } from '../../src/index.js';
import { LogFormat, type Logger, newLoggerWithFormat } from '../../src/logger/index.js';

/** A logger that keeps its lines in memory. */
export function memoryLogger(format: LogFormat = LogFormat.JSON): {
  logger: Logger;
  lines: string[];
} {
  const lines: string[] = [];
  const logger = newLoggerWithFormat(false, format).withWriter({
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line) lines.push(line);
    },
  });
  return { logger, lines };
}

/** An app for tests: JSON logs kept in memory. */
export function testApp(options: Partial<AppOptions> = {}): { app: App; lines: string[] } {
  const { logger, lines } = memoryLogger();
  const app = new App({ serviceName: 'test-svc', logger, ...options });
  return { app, lines };
}

/** The parsed JSON log entries that are request entries. */
export function requestEntries(lines: string[]): Record<string, unknown>[] {
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => 'method' in e);
}
