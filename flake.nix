{
  description = "task-marketplace: Effect service on Node 24, with PostgreSQL and Redis for development";

  # A release branch, not unstable: it only receives fixes, and flake.lock
  # holds the exact commit until someone runs `nix flake update`.
  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-26.05";

  outputs =
    { self, nixpkgs }:
    let
      # nixpkgs 26.05 is the last release that supports x86_64-darwin (it
      # prints a deprecation warning there); drop it when moving to 26.11.
      systems = [
        "x86_64-linux"
        "aarch64-linux"
        "x86_64-darwin"
        "aarch64-darwin"
      ];
      forAllSystems = f: nixpkgs.lib.genAttrs systems (system: f nixpkgs.legacyPackages.${system});
    in
    {
      # Not a pure build of the service, on purpose. package-lock.json has
      # integrity hashes but no download addresses (.npmrc sets
      # omit-lockfile-registry-resolved=true), and buildNpmPackage/importNpmLock
      # need a `resolved` address for every package. So this is a launcher that
      # runs the checkout it is started in, exactly like `npm ci && npm start`.
      packages = forAllSystems (pkgs: {
        default = pkgs.writeShellApplication {
          name = "task-marketplace";
          runtimeInputs = [ pkgs.nodejs_24 ];
          meta.description = "Run task-marketplace from the current checkout (npm ci on first run)";
          text = ''
            # The service lives in the checkout (src/, node_modules/, data/),
            # never in this script's store path.
            cd "''${TASK_MARKETPLACE_DIR:-$PWD}"
            if [ ! -f src/main.ts ] || [ ! -f package-lock.json ]; then
              echo "task-marketplace: $PWD is not the project checkout; run 'nix run' from there" >&2
              exit 1
            fi
            # Only installs on first run; after a dependency change run `npm ci` yourself.
            [ -d node_modules ] || npm ci
            exec node src/main.ts "$@"
          '';
        };
      });

      apps = forAllSystems (pkgs: {
        default = {
          type = "app";
          program = nixpkgs.lib.getExe self.packages.${pkgs.stdenv.hostPlatform.system}.default;
          meta.description = "Run task-marketplace from the current checkout";
        };
      });

      devShells = forAllSystems (pkgs: {
        default = pkgs.mkShell {
          packages = [
            pkgs.nodejs_24 # includes npm
            # Major version pinned: a data directory made by initdb only opens
            # with the same major, so bumping the lock must not change it.
            pkgs.postgresql_17
            pkgs.redis
            pkgs.git
          ];
          # Services are started by hand, not on every shell entry; the hint
          # goes to stderr so `nix develop -c …` output stays clean.
          shellHook = ''
            echo 'task-marketplace: start Postgres and Redis here with: initdb -D .cache/pg -U postgres --no-locale -E UTF8 && pg_ctl -D .cache/pg -o "-k $PWD/.cache -c listen_addresses=127.0.0.1" -l .cache/pg.log start; redis-server --daemonize yes --port 6379 --save "" --appendonly no' >&2
          '';
        };
      });

      # `nix fmt`: nixfmt (RFC 166 style) wrapped in treefmt, so it formats the tree.
      formatter = forAllSystems (pkgs: pkgs.nixfmt-tree);
    };
}
