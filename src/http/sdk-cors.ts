/**
 * What the SDK routes need that the API routes must not have: CORS open to any origin (the
 * SDK runs on the customer's pages), and bodies sent by `navigator.sendBeacon`, which can only
 * be `text/plain`, parsed as the JSON they are.
 */
import cors from 'cors';
import express, { type RequestHandler } from 'express';
import { BadRequestError } from '../errors';
import { checkJsonDepth } from './limits';

export const sdkCors: RequestHandler = cors({
  origin: '*',
  methods: ['POST'],
  allowedHeaders: ['content-type', 'x-project-id'],
  maxAge: 86_400,
});

export function makeBeaconBodyParser(limit: string): RequestHandler[] {
  return [
    express.text({ type: 'text/plain', limit }),
    (req, _res, next) => {
      if (typeof req.body !== 'string') return next();
      try {
        req.body = JSON.parse(req.body);
      } catch {
        return next(new BadRequestError('Request body is not valid JSON'));
      }
      checkJsonDepth(req.body);
      next();
    },
  ];
}
