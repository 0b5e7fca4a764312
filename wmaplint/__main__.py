from wmaplint.launch import main

main()
