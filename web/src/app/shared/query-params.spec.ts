import { filterParams } from './query-params';

describe('filterParams', () => {
  it('should leave out the empty filters and keep numbers, false and the rest', () => {
    const params = filterParams({
      status: '',
      userId: null,
      planId: undefined,
      search: 'lila',
      page: 2,
      isActive: false,
    });

    expect(params.keys()).toEqual(['search', 'page', 'isActive']);
    expect(params.toString()).toBe('search=lila&page=2&isActive=false');
  });
});
