import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The reverse proxy of compose.yaml, as a few lines of node for machines without Docker: requests go to
 * the upstreams in turn, and one that refuses the connection (stopped, restarting) is skipped for the next.
 * Only for bodies that fit in memory (tests).
 */
export interface RoundRobinProxy {
  url: string;
  /** Requests answered by each upstream, by its base URL. */
  served: Map<string, number>;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  const served = new Map(upstreams.map((upstream) => [upstream, 0]));
  let next = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const first = next++;
      const attempt = (tries: number) => {
        const upstream = upstreams[(first + tries) % upstreams.length]!;
        const target = new URL(req.url ?? '/', upstream);
        const forward = httpRequest(
          target,
          {
            // A fresh connection per request: a kept-alive socket to a stopped upstream would fail mid-request.
            agent: false,
            method: req.method,
            headers: { ...req.headers, host: target.host, 'x-forwarded-for': req.socket.remoteAddress ?? '' },
          },
          (answer) => {
            served.set(upstream, served.get(upstream)! + 1);
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forward.on('error', (error: NodeJS.ErrnoException) => {
          // Refused: nothing was sent, the next upstream may take it. A reset is retried only for reads.
          const retryable =
            error.code === 'ECONNREFUSED' ||
            (error.code === 'ECONNRESET' && (req.method === 'GET' || req.method === 'HEAD'));
          if (retryable && !res.headersSent && tries + 1 < upstreams.length) return attempt(tries + 1);
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ success: false, message: 'Bad gateway' }));
        });
        forward.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
