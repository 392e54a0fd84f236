import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpManager } from '../../src/mcp/manager';
import { testContext } from './helpers';

let httpServer: http.Server;
let url: string;

function mcpServer(): Server {
  const server = new Server({ name: 'http-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'echo',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: `http says ${String(request.params.arguments?.text)}` }],
  }));
  return server;
}

beforeAll(async () => {
  httpServer = http.createServer(async (req, res) => {
    if (req.headers['x-token'] !== 'secret') return void res.writeHead(401).end('unauthorised');
    // Stateless: a fresh server and transport per request.
    const server = mcpServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      httpServer.closeAllConnections();
      httpServer.close(() => resolve());
    }),
);

describe('MCP over streamable HTTP', () => {
  it('connects with the configured headers, lists and calls tools', async () => {
    const m = createMcpManager({
      servers: { remote: { url, headers: { 'x-token': 'secret' } } },
      startTimeoutMs: 10_000,
    });
    try {
      await m.start();
      expect(m.status()[0]).toMatchObject({ status: 'ready', toolNames: ['mcp__remote__echo'] });
      expect(m.status()[0]?.pid).toBeUndefined();
      const echo = m.tools()[0];
      expect(await echo?.execute({ text: 'hi' }, testContext())).toEqual({
        ok: true,
        output: 'http says hi',
      });
    } finally {
      await m.close();
    }
  });

  it('fails with the error when the server refuses', async () => {
    const m = createMcpManager({ servers: { remote: { url } }, startTimeoutMs: 10_000 });
    try {
      await m.start();
      expect(m.status()[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/unauthorised/) });
    } finally {
      await m.close();
    }
  });
});
