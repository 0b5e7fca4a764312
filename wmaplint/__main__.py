from wmaplint.cli import main

main()
