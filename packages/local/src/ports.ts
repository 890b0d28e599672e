import net from 'node:net';

/**
 * `count` TCP ports free on the loopback interface right now, all different: each is held until all
 * are found, so the system cannot hand one out twice (a port freed at once may be given again).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.unref();
          server.on('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** A TCP port free on the loopback interface right now. */
export const freePort = async () => {
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error('No free port found');
  return port;
};
