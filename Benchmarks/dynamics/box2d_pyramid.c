// Box2D v3's side of box2d_compare.py: a pyramid of `base` unit boxes on a ground box, as
// Box2D's own large_pyramid benchmark builds it (0.5 m half-extent, density 1, sleeping off),
// stepped `warmup` times and then `steps` times at `dt` with `substeps` sub-steps. Prints one
// line of JSON: the CPU seconds of the measured steps and the process's peak resident memory.
//
//     cc -O2 -I BOX2D/include box2d_pyramid.c BOX2D/build/src/libbox2d.a -lm -o box2d_pyramid
//     ./box2d_pyramid BASE STEPS WARMUP DT SUBSTEPS
#include "box2d/box2d.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void create_pyramid(b2WorldId world, int base)
{
	b2BodyDef groundDef = b2DefaultBodyDef();
	groundDef.position.y = -1.0f;
	b2BodyId ground = b2CreateBody(world, &groundDef);
	b2Polygon groundBox = b2MakeBox(0.5f * (float)base + 50.0f, 1.0f);
	b2ShapeDef shapeDef = b2DefaultShapeDef();
	b2CreatePolygonShape(ground, &shapeDef, &groundBox);

	b2BodyDef bodyDef = b2DefaultBodyDef();
	bodyDef.type = b2_dynamicBody;
	shapeDef.density = 1.0f;
	float a = 0.5f;
	b2Polygon box = b2MakeSquare(a);
	for (int i = 0; i < base; ++i) {
		for (int j = i; j < base; ++j) {
			bodyDef.position.x = (i + 1.0f) * a + 2.0f * (j - i) * a - a * base;
			bodyDef.position.y = (2.0f * i + 1.0f) * a;
			b2BodyId body = b2CreateBody(world, &bodyDef);
			b2CreatePolygonShape(body, &shapeDef, &box);
		}
	}
}

int main(int argc, char** argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: box2d_pyramid BASE STEPS WARMUP DT SUBSTEPS\n");
		return 2;
	}
	int base = atoi(argv[1]), steps = atoi(argv[2]), warmup = atoi(argv[3]), substeps = atoi(argv[5]);
	float dt = (float)atof(argv[4]);
	b2WorldDef worldDef = b2DefaultWorldDef();
	worldDef.workerCount = 1;
	b2WorldId world = b2CreateWorld(&worldDef);
	b2World_EnableSleeping(world, false);
	create_pyramid(world, base);
	for (int k = 0; k < warmup; ++k) b2World_Step(world, dt, substeps);
	double start = cpu_seconds();
	for (int k = 0; k < steps; ++k) b2World_Step(world, dt, substeps);
	double elapsed = cpu_seconds() - start;
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	printf("{\"bodies\": %d, \"cpu_seconds\": %.6f, \"peak_kb\": %ld}\n", base * (base + 1) / 2, elapsed, usage.ru_maxrss);
	b2DestroyWorld(world);
	return 0;
}
