#!/usr/bin/env node
// The registry this project installs from serves only some platforms' builds of packages such as
// @biomejs/biome, so `npm install` leaves the others out of package-lock.json, and `npm ci`
// then rejects the lock as out of sync. This adds a lock entry, with its os/cpu/libc, for every
// optional platform package a locked package names but the lock lacks; npm ci skips them on
// other platforms without fetching them. Run it after `npm install`: `node scripts/complete-lockfile.mjs`
// (or give it the path of another lock file).
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['android', 'darwin', 'freebsd', 'linux', 'netbsd', 'openbsd', 'sunos', 'win32', 'aix'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el'];

/** The lock entries a lock is missing, keyed by their node_modules path. */
export function missingEntries(lock) {
  const packages = lock.packages ?? {};
  const missing = {};
  for (const [path, entry] of Object.entries(packages)) {
    for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const key = `node_modules/${name}`;
      if (packages[key] || missing[key]) continue;
      const parts = name.split('/').pop().split('-');
      const os = parts.filter((p) => OS.includes(p));
      const cpu = parts.filter((p) => CPU.includes(p));
      // Only platform builds can be completed this way; anything else is a real gap.
      if (os.length === 0 && cpu.length === 0) continue;
      const add = { version, dev: entry.dev === true, optional: true };
      if (cpu.length) add.cpu = cpu;
      if (os.length) add.os = os;
      if (os.includes('linux')) add.libc = [parts.includes('musl') ? 'musl' : 'glibc'];
      if (!add.dev) delete add.dev;
      missing[key] = add;
      void path;
    }
  }
  return missing;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2] ?? new URL('../package-lock.json', import.meta.url);
  const lock = JSON.parse(readFileSync(file, 'utf8'));
  const missing = missingEntries(lock);
  const names = Object.keys(missing);
  if (names.length === 0) {
    console.log('package-lock.json is complete');
  } else {
    const packages = { ...lock.packages, ...missing };
    const root = packages[''];
    delete packages[''];
    lock.packages = {
      '': root,
      ...Object.fromEntries(Object.entries(packages).sort(([a], [b]) => a.localeCompare(b))),
    };
    writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
    console.log(
      `added ${names.length} platform entries: ${names.map((n) => n.slice(13)).join(', ')}`,
    );
  }
}
