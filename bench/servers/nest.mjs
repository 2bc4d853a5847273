// NestJS on its Fastify adapter: CORS, a Zod pipe answering 422, a fastify response schema, and
// a middleware writing one JSON request-log line per request to LOG_FILE. Plain JavaScript, so
// the decorators a TypeScript project would write are applied by hand, as tsc would emit them.
import 'reflect-metadata';
import {
  Body,
  Controller,
  Get,
  Module,
  Param,
  Post,
  UnprocessableEntityException,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, RouteSchema } from '@nestjs/platform-fastify';
import { z } from 'zod';
import { createdUser, HELLO, HOST, PORT, userOf } from './bodies.mjs';
import { invalid, NewUser, openLogFile, requestLine, User, UserParams } from './features.mjs';

const log = openLogFile();
const userJson = z.toJSONSchema(User, { target: 'draft-7' });

/** Validates a value with a Zod schema; 422 when it does not pass. */
class ZodPipe {
  constructor(schema) {
    this.schema = schema;
  }
  transform(value) {
    const result = this.schema.safeParse(value);
    if (!result.success) throw new UnprocessableEntityException(invalid(result.error.issues));
    return result.data;
  }
}

function requestLog(req, res, next) {
  const start = performance.now();
  res.on('finish', () => {
    log.write(requestLine(req.method, req.url, res.statusCode, performance.now() - start));
  });
  next();
}

class UsersController {
  hello() {
    return HELLO;
  }
  user(params) {
    return userOf(params.id);
  }
  create(body) {
    return createdUser(body);
  }
}

class AppModule {
  configure(consumer) {
    consumer.apply(requestLog).forRoutes(UsersController);
  }
}

/** What tsc emits for decorators on a method and its parameters. */
function decorate(target, key, decorators, parameters = []) {
  const params = parameters.map((decorator, index) => (t, k) => decorator(t, k, index));
  const descriptor = Reflect.decorate(
    [...decorators, ...params],
    target,
    key,
    Object.getOwnPropertyDescriptor(target, key),
  );
  Object.defineProperty(target, key, descriptor);
}

const proto = UsersController.prototype;
decorate(proto, 'hello', [Get('hello')]);
decorate(
  proto,
  'user',
  [Get('users/:id'), RouteSchema({ response: { 200: userJson } })],
  [Param(new ZodPipe(UserParams))],
);
decorate(
  proto,
  'create',
  [Post('users'), RouteSchema({ response: { 201: userJson } })],
  [Body(new ZodPipe(NewUser))],
);
Reflect.decorate([Controller()], UsersController);
Reflect.decorate([Module({ controllers: [UsersController] })], AppModule);

const app = await NestFactory.create(AppModule, new FastifyAdapter(), {
  logger: ['error', 'warn'],
});
app.enableCors({ origin: '*' });
await app.listen(PORT, HOST);
