#define KTRACEB_BUILD_ID "a67db534a8cc"
