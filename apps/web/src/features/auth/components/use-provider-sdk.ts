import { useEffect, useRef, useState } from 'react';
import { loadScript } from '../../../lib/script-loader.ts';

export type SdkState<T> =
  | { status: 'off' }
  | { status: 'loading' }
  | { status: 'ready'; sdk: T }
  | { status: 'failed' };

/**
 * Loads a provider's SDK only when this server has an id for that provider, and only while a screen
 * with the buttons is mounted. `prepare` reads the SDK's global (and initialises it); throwing or
 * returning nothing counts as a failure to load.
 */
export function useProviderSdk<T>(
  src: string,
  clientId: string | null,
  prepare: (clientId: string) => T | undefined,
): SdkState<T> {
  const [state, setState] = useState<SdkState<T>>({ status: 'off' });
  const prepareRef = useRef(prepare);
  prepareRef.current = prepare;

  useEffect(() => {
    if (!clientId) {
      setState({ status: 'off' });
      return;
    }
    let current = true;
    setState({ status: 'loading' });
    loadScript(src)
      .then(() => {
        const sdk = prepareRef.current(clientId);
        if (!sdk) throw new Error(`${src} loaded but did not start`);
        if (current) setState({ status: 'ready', sdk });
      })
      .catch(() => {
        if (current) setState({ status: 'failed' });
      });
    return () => {
      current = false;
    };
  }, [src, clientId]);

  return state;
}
