/**
 * Adds a third-party script (a sign-in SDK) to the page once. Every caller asking for the same URL
 * gets the same promise while its <script> is on the page; a script that fails to load is removed, so
 * a later call tries again.
 */
const scripts = new Map<string, { element: HTMLScriptElement; loaded: Promise<void> }>();

export function loadScript(src: string): Promise<void> {
  const known = scripts.get(src);
  if (known?.element.isConnected) return known.loaded;

  const element = document.createElement('script');
  element.src = src;
  element.async = true;
  const loaded = new Promise<void>((resolve, reject) => {
    element.addEventListener('load', () => resolve(), { once: true });
    element.addEventListener(
      'error',
      () => {
        scripts.delete(src);
        element.remove();
        reject(new Error(`Could not load ${src}`));
      },
      { once: true },
    );
  });
  scripts.set(src, { element, loaded });
  document.head.append(element);
  return loaded;
}
