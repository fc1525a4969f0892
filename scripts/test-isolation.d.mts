export function needsIsolation(source: string): boolean;
export function testFilesByIsolation(
  root: string,
  suffixes: string[],
  only?: (path: string) => boolean,
): { shared: string[]; isolated: string[] };
