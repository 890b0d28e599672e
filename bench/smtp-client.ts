import net from 'node:net';

/**
 * Sends one message over SMTP as a mail client would (EHLO, MAIL FROM, RCPT TO, DATA with dot
 * stuffing, QUIT); true when the server took it (250 after the data), false on any refusal or error.
 */
export function sendSmtp(
  server: { host: string; port: number },
  envelope: { from: string; to: string },
  message: string,
  timeoutMs = 15_000,
): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(server.port, server.host);
    const data = `${message.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..')}\r\n.`;
    const steps = [
      'EHLO bench.example',
      `MAIL FROM:<${envelope.from}>`,
      `RCPT TO:<${envelope.to}>`,
      'DATA',
      data,
      'QUIT',
    ];
    let step = 0;
    let buffer = '';
    let ok = false;
    socket.setTimeout(timeoutMs, () => socket.destroy());
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      // Each complete reply (a line whose code is followed by a space) moves one step.
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (line[3] === '-') continue;
        const code = Number(line.slice(0, 3));
        if (code >= 400) return socket.destroy();
        if (step === 5 && code === 250) ok = true;
        if (step < steps.length) socket.write(`${steps[step]}\r\n`);
        step++;
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(ok));
  });
}
