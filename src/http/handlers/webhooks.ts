/** Handlers of the `Webhooks` tag's delivery operations, named after their operationIds. */
import type { Request, Response } from 'express';
import type {
  WebhookDeliveries,
  WebhookDeliveryDetail,
  WebhookDeliveryQuery,
  WebhookDeliveryReplayed,
} from '../../api-types';
import type { WebhookDeliveryUseCases } from '../../usecases/webhook-deliveries';
import { actorOf, projectOf } from '../context';

export function makeWebhookHandlers(deliveries: WebhookDeliveryUseCases) {
  return {
    async listWebhookDeliveries(req: Request, res: Response) {
      const page = await deliveries.list(projectOf(req).id, req.query as WebhookDeliveryQuery);
      const body: WebhookDeliveries = { request_id: req.requestId, ...page };
      res.json(body);
    },
    async getWebhookDelivery(req: Request, res: Response) {
      const delivery = await deliveries.get(projectOf(req).id, String(req.params.request_id));
      const body: WebhookDeliveryDetail = { request_id: req.requestId, delivery };
      // The event may hold personal data (an ID Check's document fields): never cached on the way.
      res.set('cache-control', 'no-store').json(body);
    },
    async replayWebhookDelivery(req: Request, res: Response) {
      const delivery = await deliveries.replay(
        projectOf(req).id,
        String(req.params.request_id),
        actorOf(req),
        req.requestId,
      );
      const body: WebhookDeliveryReplayed = { request_id: req.requestId, delivery };
      res.json(body);
    },
  };
}
