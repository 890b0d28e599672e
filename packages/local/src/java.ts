import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * DynamoDB Local is a Java program, spawned as `java` from PATH. This module imports nothing heavy, so
 * `npm start` and the test setup can check for it before loading the stand-ins (which takes seconds).
 */
export class MissingJavaError extends Error {
  constructor() {
    super(
      'DynamoDB Local needs Java, and no `java` was found on PATH. Install a Java runtime (11 or later), ' +
        'for example `sudo apt-get install -y default-jre-headless` (Debian, Ubuntu) or `brew install openjdk` (macOS), then try again.',
    );
    this.name = 'MissingJavaError';
  }
}

/** The executable `java` that DynamoDB Local's spawn would run: the first on `path` (PATH's format). */
export function findJava(path = process.env.PATH ?? '') {
  const name = process.platform === 'win32' ? 'java.exe' : 'java';
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here: try the next directory.
    }
  }
  return undefined;
}

/** Throws MissingJavaError when DynamoDB Local cannot start for want of Java. */
export function requireJava() {
  if (!findJava()) throw new MissingJavaError();
}
