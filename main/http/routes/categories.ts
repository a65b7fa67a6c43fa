import { Router } from 'express';
import { CategoryCreateSchema, CategoryListQuerySchema, CategoryUpdateSchema } from '../../../shared/api/categories.js';
import type { Caller } from '../../services/caller.js';
import type { CategoryService } from '../../services/categories.js';
import { callerOf } from '../auth.js';
import { parseBody, parseQuery } from '../validation.js';

export function categoryRoutes(categories: CategoryService): Router {
  const router = Router();

  router.get('/categories', (req, res) => {
    res.json(categoryPageAnswer(categories, callerOf(res), req.query));
  });

  router.post('/categories', (req, res) => {
    const body = parseBody(CategoryCreateSchema, req.body);
    res.json({ success: true, id: categories.create(callerOf(res), body) });
  });

  router.get('/categories/:categoryId', (req, res) => {
    res.json({ data: categories.get(callerOf(res), req.params.categoryId) });
  });

  router.post('/categories/:categoryId', (req, res) => {
    const body = parseBody(CategoryUpdateSchema, req.body);
    categories.update(callerOf(res), req.params.categoryId, body);
    res.json({ success: true });
  });

  return router;
}

/** `GET /categories`' answer to a query string's parameters; 400 when they are not a valid query. */
export function categoryPageAnswer(categories: CategoryService, caller: Caller, rawQuery: unknown) {
  return categories.list(caller, parseQuery(CategoryListQuerySchema, rawQuery));
}
